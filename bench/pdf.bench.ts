import { execFileSync } from 'node:child_process';
import { invoiceData } from '../src/invoicing/invoice-data.ts';
import type { LabelData } from '../src/labels/label-data.ts';
import { createLogger } from '../src/logger.ts';
import { createPdfPool } from '../src/pdf/pdf-pool.ts';
import type { PdfJob } from '../src/pdf/pdf-worker.ts';
import { aSale, anIssue, invoiceOptions } from '../test/invoicing/invoice-fixtures.ts';
import { machine } from './bench-runtime.ts';

/**
 * `npm run bench:pdf`: what one PDF costs in the worker pool, on its own (no HTTP, no store): the
 * process's CPU time per document (the worker thread's included), documents per second with one
 * worker, and the memory a worker holds once it has rendered (pdfmake, the fonts, its V8 heap).
 * BENCH_DOCUMENTS documents of each kind (default 200).
 */

const documents = Number(process.env.BENCH_DOCUMENTS ?? 200);
const rssMiB = () => process.memoryUsage().rss / 1048576;

const label: LabelData = {
  serviceOrderId: '100004512_1',
  incrementId: '100004512',
  supplier: 'supplier-a',
  sku: 'CAN-OSLO-3P-GRY',
  productName: 'Canapé 3 places Oslo gris',
  quantity: 1,
  carrier: 'Geodis',
  recipient: { firstname: 'Claire', lastname: 'Martin', street: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon', country_id: 'FR' },
  trackingNumber: 'MC0000000000018',
};

console.log(`bench:pdf on ${machine()}`);
console.log(`uptime: ${execFileSync('uptime').toString().trim()}`);

const before = rssMiB();
const pool = createPdfPool({ threads: 1, maxQueue: documents, timeoutMs: 30_000, log: createLogger('silent') });
let peak = before;
const measure = async (name: string, job: PdfJob) => {
  await pool.render(job, 'person'); // the first document loads pdfmake and the fonts
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < documents; i++) {
    await pool.render(job, 'person');
    peak = Math.max(peak, rssMiB());
  }
  const { user, system } = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `  ${name}: ${((user + system) / 1000 / documents).toFixed(1)} ms of CPU each, ${(documents / seconds).toFixed(1)}/s with one worker, one at a time`,
  );
};
await measure('invoice', { kind: 'invoice', data: invoiceData(aSale(), anIssue, invoiceOptions()) });
await measure('label', { kind: 'label', data: label });
console.log(`  process RSS: ${before.toFixed(0)} MiB before the worker, ${peak.toFixed(0)} MiB at its peak (+${(peak - before).toFixed(0)} MiB)`);
await pool.close();
