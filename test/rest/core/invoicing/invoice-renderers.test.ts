import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealActionToken } from '../../../../src/events/access/action-token.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { importSale, type OrderImportPayload } from '../../../../src/events/sales/import-sale.ts';
import { failingCustomers } from '../../../pdf/faulty-pdf-worker.ts';
import { startApi, type ApiHarness } from '../../../support/api-harness.ts';
import { pdfText } from '../../../labels/pdf-tools.ts';

/**
 * GET /api/sale-invoice/{token} when its renderer fails: a real worker thread (test/pdf/faulty-pdf-worker.ts)
 * that throws, loops past the time limit or exits on the invoices of some customers. One worker and
 * no queue, so that each spec also shows the pool whole again: the next invoice is served.
 */

const now = new Date('2026-10-03T08:00:00.000Z');
let lastIncrementId = 710_000_000;

const anOrder = (lastname: string): OrderImportPayload => ({
  increment_id: String(++lastIncrementId),
  created_at: '2026-10-02T09:14:00+02:00',
  customer: { email: 'client@example.org', firstname: 'Claire', lastname },
  shipping_address: { firstname: 'Claire', lastname, street: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon', country_id: 'FR' },
  items: [{ sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 1, price: 129.9, supplier: null }],
});

const collect = (res: http.IncomingMessage, done: (error: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

const unrenderable = { success: false, error: 'Service Unavailable', message: 'The document could not be rendered; retry shortly.' };

describe('GET /api/sale-invoice/{token} when the PDF renderer fails', () => {
  let api: ApiHarness;
  let coreToken: string;

  beforeAll(async () => {
    api = await startApi({
      clock: { now: () => now },
      // 4 s: the limit also covers a replaced worker's start (loading the sources and fonts), slow on a loaded machine.
      env: { PDF_WORKERS: '1', PDF_QUEUE: '0', PDF_TIMEOUT_MS: '4000' },
      pdfWorker: new URL('../../../pdf/faulty-pdf-worker.ts', import.meta.url),
    });
    coreToken = await api.tokenFor('core');
  });
  afterAll(async () => api.close());

  /** The invoice of a new sale of this customer. */
  const invoiceOf = async (lastname: string) => {
    const { saleId } = await importSale(api.runtime.salesDeps, anOrder(lastname), systemContext());
    const iat = Math.floor(now.getTime() / 1000);
    const token = sealActionToken({ jti: randomUUID(), action: 'invoice', saleId, iat, exp: iat + 3600 }, api.runtime.tokenSecret);
    return api.request
      .get(`/api/sale-invoice/${token}`)
      .set('Authorization', `Bearer ${coreToken}`)
      .buffer(true)
      .parse((res, done) => collect(res as unknown as http.IncomingMessage, done));
  };
  const jsonOf = (body: unknown): unknown => JSON.parse((body as Buffer).toString('utf8'));

  const expectServedAgain = async () => {
    const next = await invoiceOf('Martin');
    expect(next.status).toBe(200);
    expect(await pdfText(next.body as Buffer)).toContain('Claire Martin');
    expect(api.runtime.pdf.stats()).toMatchObject({ threads: 1, running: 0, waiting: { person: 0, background: 0 } });
  };

  it('when the renderer throws on the document, it answers 503 in the core envelope, and the next invoice is served', async () => {
    const failed = await invoiceOf(failingCustomers.throws);
    expect(failed.status).toBe(503);
    expect(failed.headers['retry-after']).toBe('1');
    expect(jsonOf(failed.body)).toEqual(unrenderable);
    await expectServedAgain();
  });

  it('when the renderer exceeds its time limit, its worker is replaced, the request answers 503, and the next invoice is served', async () => {
    const started = performance.now();
    const failed = await invoiceOf(failingCustomers.hangs);
    expect(failed.status).toBe(503);
    expect(jsonOf(failed.body)).toEqual(unrenderable);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1900);
    await expectServedAgain();
  });

  it('when the renderer dies, it is replaced, the request answers 503, and the next invoice is served', async () => {
    const failed = await invoiceOf(failingCustomers.dies);
    expect(failed.status).toBe(503);
    expect(jsonOf(failed.body)).toEqual(unrenderable);
    await expectServedAgain();
  });

  it('when the only renderer is busy and nothing may queue, another invoice answers 503 with Retry-After at once', async () => {
    const hanging = invoiceOf(failingCustomers.hangs);
    // The stuck document holds the worker for its 4 s.
    while (api.runtime.pdf.stats().running === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const refused = await invoiceOf('Martin');
    expect(refused.status).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(jsonOf(refused.body)).toEqual({ success: false, error: 'Service Unavailable', message: 'Every document renderer is busy; retry shortly.' });
    expect((await hanging).status).toBe(503);
    await expectServedAgain();
  });
});
