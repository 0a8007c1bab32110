import type { CreditNoteData, InvoiceData } from '../../events/invoicing/documents.ts';
import type { Tracked } from '../projection.ts';

/**
 * The `issued_documents` read model: every invoice and credit note issued, `_id` = its number, with
 * what it prints. Written once per number and never changed: the documents of record, found by sale.
 */

export const issuedDocumentsCollection = 'issued_documents';

type Register = Tracked & { _id: string; saleId: number; year: number; sequence: number; issuedAt: string };

export type IssuedInvoiceDocument = Register & { kind: 'invoice'; invoice: InvoiceData };

export type IssuedCreditNoteDocument = Register & { kind: 'credit-note'; invoiceNumber: string; saleProductIds: number[]; creditNote: CreditNoteData };

export type IssuedDocument = IssuedInvoiceDocument | IssuedCreditNoteDocument;
