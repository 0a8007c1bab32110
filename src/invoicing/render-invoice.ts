import { renderPdf, type PdfA3 } from '../pdf/render-pdf.ts';
import type { CreditNoteData, InvoiceData } from '../events/invoicing/documents.ts';
import { creditNoteDocument } from './credit-note-document.ts';
import { creditNoteCrossIndustryXml, invoiceCrossIndustryXml } from './factur-x/cross-industry-invoice.ts';
import { facturXFileName, facturXMetadata } from './factur-x/factur-x-metadata.ts';
import { invoiceDocument } from './invoice-document.ts';

/**
 * The PDFs of the issued documents: Factur-X, a PDF/A-3 that carries the document as EN 16931 XML, for
 * every customer (a business must receive one; a consumer's costs the same). Their bytes depend only
 * on the document's recorded data (dated by its issue, not by now), so the same document always
 * renders to the same bytes and can be cached.
 */

const facturX = (xml: string, issuedAt: string): PdfA3 => ({
  file: {
    name: facturXFileName,
    mimeType: 'text/xml',
    description: 'Factur-X (EN 16931)',
    // The French and German profiles of EN 16931 and above: the XML is the invoice the page renders.
    relationship: 'Alternative',
    content: Buffer.from(xml, 'utf8'),
    modifiedAt: new Date(issuedAt),
  },
  xmp: facturXMetadata,
});

export const renderInvoicePdf = async (invoice: InvoiceData): Promise<Buffer> =>
  renderPdf(invoiceDocument(invoice), facturX(invoiceCrossIndustryXml(invoice), invoice.issuedAt));

export const renderCreditNotePdf = async (creditNote: CreditNoteData): Promise<Buffer> =>
  renderPdf(creditNoteDocument(creditNote), facturX(creditNoteCrossIndustryXml(creditNote), creditNote.issuedAt));
