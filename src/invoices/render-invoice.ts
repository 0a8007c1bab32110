import { renderPdf } from '../pdf/render-pdf.ts';
import type { InvoiceData } from './invoice-data.ts';
import { invoiceDocument } from './invoice-document.ts';

/**
 * The invoice's PDF. Rendered on each request (tens of milliseconds, mostly the font): nothing is
 * stored, and the bytes depend only on the invoice's data, so a cache can be put in front later.
 */
export const renderInvoicePdf = async (invoice: InvoiceData): Promise<Buffer> => renderPdf(invoiceDocument(invoice));
