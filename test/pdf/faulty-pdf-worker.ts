import type { PdfJob } from '../../src/pdf/pdf-worker.ts';
import renderJob from '../../src/pdf/pdf-worker.ts';

/**
 * A PDF worker for the specs: the service's own, except for invoices of customers named to fail, so
 * that a spec can make a real worker thread throw, hang or die with the document it asks for.
 */
export const failingCustomers = { throws: 'Plantage', hangs: 'Boucle', dies: 'Arret' } as const;

export default async function faultyRenderJob(job: PdfJob): Promise<Uint8Array> {
  if (job.kind === 'invoice') {
    const { lastname } = job.data.customer;
    if (lastname === failingCustomers.throws) throw new Error('the renderer failed on this document');
    if (lastname === failingCustomers.hangs) for (;;);
    if (lastname === failingCustomers.dies) process.exit(1);
  }
  return renderJob(job);
}
