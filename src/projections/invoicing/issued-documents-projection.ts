import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/catalogue/catalogue.ts';
import { evolveOnce, insertOnce, type Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
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
  eventTypes,
  collections: [issuedDocumentsCollection, saleDocumentsCollection],

  async apply(stored: StoredEvent, store: ReadStore) {
    if (!handled.has(stored.type)) return;
    const event = stored as StoredEvent<Handled>;
    const documents = store.collection<IssuedDocument>(issuedDocumentsCollection);
    const sales = store.collection<SaleDocuments>(saleDocumentsCollection);
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
