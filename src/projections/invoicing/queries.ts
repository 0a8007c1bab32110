import type { Filter, ReadStore } from '../read-store/read-store.ts';
import { issuedDocumentsCollection, type IssuedCreditNoteDocument, type IssuedDocument, type IssuedInvoiceDocument } from './issued-document.ts';

/** Reads of the `issued_documents` read model. */

const documents = (store: ReadStore) => store.collection<IssuedDocument>(issuedDocumentsCollection);

/** A sale's invoice: the first issued for it (a sale is invoiced once; the register sees to it). */
export const findSaleInvoice = async (store: ReadStore, saleId: number): Promise<IssuedInvoiceDocument | null> => {
  const [first] = await documents(store)
    .find({ saleId, kind: 'invoice' } as Filter<IssuedDocument>, { sort: { year: 1, sequence: 1 }, limit: 1 })
    .toArray();
  return (first as IssuedInvoiceDocument | undefined) ?? null;
};

/** Every document issued for these sales, invoices and credit notes, in the order of their registers. */
export const findIssuedForSales = (store: ReadStore, saleIds: readonly number[], kind: IssuedDocument['kind']): Promise<IssuedDocument[]> =>
  documents(store)
    .find({ saleId: { $in: [...saleIds] }, kind } as Filter<IssuedDocument>, { sort: { year: 1, sequence: 1 } })
    .toArray();

/** A sale's credit note by its number; null when no credit note of that sale has it. */
export const findSaleCreditNote = async (store: ReadStore, saleId: number, number: string): Promise<IssuedCreditNoteDocument | null> => {
  const found = await documents(store).findOne({ _id: number } as Filter<IssuedDocument>);
  return found && found.kind === 'credit-note' && found.saleId === saleId ? found : null;
};

/** A sale's credit notes, oldest first. */
export const findSaleCreditNotes = async (store: ReadStore, saleId: number): Promise<IssuedCreditNoteDocument[]> =>
  (await findIssuedForSales(store, [saleId], 'credit-note')) as IssuedCreditNoteDocument[];
