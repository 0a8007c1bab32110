import { renderPdf } from '../pdf/render-pdf.ts';
import type { CreditNoteData, InvoiceData } from '../events/invoicing/documents.ts';
import { creditNoteDocument } from './credit-note-document.ts';
import { invoiceDocument } from './invoice-document.ts';

/**
 * The PDFs of the issued documents. Their bytes depend only on the document's recorded data (dated by
 * its issue, not by now), so the same document always renders to the same bytes and can be cached.
 */
export const renderInvoicePdf = async (invoice: InvoiceData): Promise<Buffer> => renderPdf(invoiceDocument(invoice));

export const renderCreditNotePdf = async (creditNote: CreditNoteData): Promise<Buffer> => renderPdf(creditNoteDocument(creditNote));
