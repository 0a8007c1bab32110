import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import { evolveOnce, insertOnce, type Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import { creditNotePersonalData, invoicePersonalData } from '../../events/invoicing/events.ts';
import { erasedAt } from '../../events/schema/personal-data.ts';
import { isCustomerErased } from '../erasure.ts';
import { issuedDocumentsCollection, saleDocumentsCollection, type IssuedDocument, type SaleDocuments } from './issued-document.ts';

const eventTypes = ['InvoiceIssued', 'CreditNoteIssued'] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

/** The invoices and credit notes issued: each by its number, and the numbers of each sale. */
export const issuedDocumentsProjection: Projection = {
  name: 'issued-documents',
  // Kept at 1: while a new version is built the live one stops following the log, and the registers,
  // which read it to find a sale's documents, could then issue one twice.
  version: 1,
  eventTypes: [...eventTypes, 'CustomerErased'],
  collections: [issuedDocumentsCollection, saleDocumentsCollection],

  async apply(stored: StoredEvent, store: ReadStore) {
    const documents = store.collection<IssuedDocument>(issuedDocumentsCollection);
    const sales = store.collection<SaleDocuments>(saleDocumentsCollection);
    if (isCustomerErased(stored)) {
      // The documents keep their numbers, lines and amounts; the customer's copies read [erased], as the
      // events they were built from now do (a rebuild writes the same).
      for (const { saleId } of stored.data.sales) {
        const issued = await sales.findOne({ _id: saleId });
        for (const number of issued ? [issued.invoice, ...issued.creditNotes] : []) {
          if (number === null) continue;
          await evolveOnce(documents, number, stored.position, (document) => document && scrubbed(document));
        }
      }
      return;
    }
    if (!handled.has(stored.type)) return;
    const event = stored as StoredEvent<Handled>;
    const { number, year, sequence, saleId, issuedAt } = event.data;
    const common = { _id: number, _position: event.position, saleId, year, sequence, issuedAt };
    // A number is issued once (its register's revision): its document is written once, never replaced.
    switch (event.type) {
      case 'InvoiceIssued': {
        await insertOnce(documents, { ...common, kind: 'invoice', invoice: event.data.invoice });
        await evolveOnce(sales, saleId, event.position, (current) => ({
          invoice: current?.invoice ?? number,
          creditNotes: current?.creditNotes ?? [],
        }));
        return;
      }
      case 'CreditNoteIssued': {
        const { invoiceNumber, saleProductIds, creditNote } = event.data;
        await insertOnce(documents, { ...common, kind: 'credit-note', invoiceNumber, saleProductIds, creditNote });
        await evolveOnce(sales, saleId, event.position, (current) => ({
          invoice: current?.invoice ?? invoiceNumber,
          creditNotes: [...(current?.creditNotes ?? []), number],
        }));
        return;
      }
      default:
        return assertNever(event);
    }
  },
};

const scrubbed = (document: IssuedDocument): IssuedDocument =>
  document.kind === 'invoice' ? erasedAt(document, invoicePersonalData.fields) : erasedAt(document, creditNotePersonalData.fields);
