import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/catalogue/catalogue.ts';
import { insertOnce, type Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import { issuedDocumentsCollection, type IssuedDocument } from './issued-document.ts';

const eventTypes = ['InvoiceIssued', 'CreditNoteIssued'] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

/** The invoices and credit notes issued, one document per number, looked up by sale and by number. */
export const issuedDocumentsProjection: Projection = {
  name: 'issued-documents',
  // Kept at 1: while a new version is built the live one stops following the log, and the registers,
  // which read it to find a sale's documents, could then issue one twice.
  version: 1,
  eventTypes,
  collections: [issuedDocumentsCollection],

  async setup(store: ReadStore) {
    await store.collection<IssuedDocument>(issuedDocumentsCollection).createIndex({ saleId: 1, kind: 1 });
  },

  async apply(stored: StoredEvent, store: ReadStore) {
    if (!handled.has(stored.type)) return;
    const event = stored as StoredEvent<Handled>;
    const documents = store.collection<IssuedDocument>(issuedDocumentsCollection);
    // A number is issued once (its register's revision): the document is written once, never replaced.
    switch (event.type) {
      case 'InvoiceIssued': {
        const { number, year, sequence, saleId, issuedAt, invoice } = event.data;
        await insertOnce(documents, { _id: number, _position: event.position, kind: 'invoice', saleId, year, sequence, issuedAt, invoice });
        return;
      }
      case 'CreditNoteIssued': {
        const { number, year, sequence, saleId, issuedAt, invoiceNumber, saleProductIds, creditNote } = event.data;
        await insertOnce(documents, {
          _id: number,
          _position: event.position,
          kind: 'credit-note',
          saleId,
          year,
          sequence,
          issuedAt,
          invoiceNumber,
          saleProductIds,
          creditNote,
        });
        return;
      }
      default:
        return assertNever(event);
    }
  },
};
