import type { CreditNoteData, InvoiceData } from '../../events/invoicing/documents.ts';
import type { Tracked } from '../projection.ts';

/**
 * The issued invoices and credit notes, in two collections read by `_id` only (the cheapest lookup of
 * every read store): `issued_documents`, one document per number with what it prints, written once and
 * never changed; and `sale_documents`, one per sale, the numbers of its invoice and credit notes.
 */

export const issuedDocumentsCollection = 'issued_documents';
export const saleDocumentsCollection = 'sale_documents';

type Register = Tracked & { _id: string; saleId: number; year: number; sequence: number; issuedAt: string };

export type IssuedInvoiceDocument = Register & { kind: 'invoice'; invoice: InvoiceData };

export type IssuedCreditNoteDocument = Register & { kind: 'credit-note'; invoiceNumber: string; saleProductIds: number[]; creditNote: CreditNoteData };

export type IssuedDocument = IssuedInvoiceDocument | IssuedCreditNoteDocument;

export type SaleDocuments = Tracked & {
  _id: number;
  /** The sale's invoice: the first issued for it (a sale is invoiced once; the register sees to it). */
  invoice: string | null;
  /** Its credit notes, in the order they were issued. */
  creditNotes: string[];
};
