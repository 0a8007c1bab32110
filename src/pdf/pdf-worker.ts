import { renderCreditNotePdf, renderInvoicePdf } from '../invoicing/render-invoice.ts';
import { renderLabelPdf } from '../labels/render-label.ts';
import type { PdfJob } from './pdf-job.ts';

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
