import { renderCreditNotePdf, renderInvoicePdf } from '../invoicing/render-invoice.ts';
import { renderLabelPdf } from '../labels/render-label.ts';
import type { CreditNoteData, InvoiceData } from '../events/invoicing/documents.ts';
import type { LabelData } from '../labels/label-data.ts';

/**
 * A document a PDF worker renders: its data only, plain and structured-cloneable, since a document
 * definition holds functions (page footers) that cannot cross to a worker thread. The worker builds
 * the definition from the data with the same layout code as ever. Declared here, in the worker's
 * entry: the one file of pdf/ that knows the documents, since it renders them.
 */
export type PdfJob = { kind: 'label'; data: LabelData } | { kind: 'invoice'; data: InvoiceData } | { kind: 'credit-note'; data: CreditNoteData };

/**
 * The entry of a PDF worker thread (piscina): one document per call. Fonts and pdfmake are loaded by
 * the thread's first document and kept for the next ones (render-pdf.ts).
 */
export default async function renderJob(job: PdfJob): Promise<Uint8Array> {
  switch (job.kind) {
    case 'label':
      return renderLabelPdf(job.data);
    case 'invoice':
      return renderInvoicePdf(job.data);
    case 'credit-note':
      return renderCreditNotePdf(job.data);
    default: {
      const unknown: never = job;
      throw new Error(`Unknown PDF job ${JSON.stringify(unknown)}`);
    }
  }
}
