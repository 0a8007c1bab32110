import type { Filter, ReadStore } from '../read-store/read-store.ts';
import {
  issuedDocumentsCollection,
  saleDocumentsCollection,
  type IssuedCreditNoteDocument,
  type IssuedDocument,
  type IssuedInvoiceDocument,
  type SaleDocuments,
} from './issued-document.ts';

/** Reads of the issued documents, by `_id` only. */

const documents = (store: ReadStore) => store.collection<IssuedDocument>(issuedDocumentsCollection);
const sales = (store: ReadStore) => store.collection<SaleDocuments>(saleDocumentsCollection);

const byNumbers = async (store: ReadStore, numbers: readonly string[]): Promise<IssuedDocument[]> => {
  if (numbers.length === 0) return [];
  const found = await documents(store)
    .find({ _id: { $in: [...numbers] } } as Filter<IssuedDocument>)
    .toArray();
  return found.sort((a, b) => a.year - b.year || a.sequence - b.sequence);
};

/** A sale's invoice; null when it has none yet. */
export const findSaleInvoice = async (store: ReadStore, saleId: number): Promise<IssuedInvoiceDocument | null> => {
  const sale = await sales(store).findOne({ _id: saleId });
  if (!sale?.invoice) return null;
  const found = await documents(store).findOne({ _id: sale.invoice } as Filter<IssuedDocument>);
  return found?.kind === 'invoice' ? found : null;
};

/** The documents of one kind issued for these sales, in the order of their registers. */
export const findIssuedForSales = async (store: ReadStore, saleIds: readonly number[], kind: IssuedDocument['kind']): Promise<IssuedDocument[]> => {
  const found = await sales(store)
    .find({ _id: { $in: [...saleIds] } } as Filter<SaleDocuments>)
    .toArray();
  return byNumbers(
    store,
    found.flatMap((sale) => (kind === 'invoice' ? (sale.invoice ? [sale.invoice] : []) : sale.creditNotes)),
  );
};

/** A sale's credit note by its number; null when no credit note of that sale has it. */
export const findSaleCreditNote = async (store: ReadStore, saleId: number, number: string): Promise<IssuedCreditNoteDocument | null> => {
  const found = await documents(store).findOne({ _id: number } as Filter<IssuedDocument>);
  return found && found.kind === 'credit-note' && found.saleId === saleId ? found : null;
};

/** A sale's credit notes, oldest first. */
export const findSaleCreditNotes = async (store: ReadStore, saleId: number): Promise<IssuedCreditNoteDocument[]> =>
  (await findIssuedForSales(store, [saleId], 'credit-note')) as IssuedCreditNoteDocument[];

/** An issued document by its number; null when none has it. */
export const findIssuedDocument = (store: ReadStore, number: string): Promise<IssuedDocument | null> =>
  documents(store).findOne({ _id: number } as Filter<IssuedDocument>);
