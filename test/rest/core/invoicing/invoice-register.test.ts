import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/config/config.ts';
import { issueAccessToken } from '../../../../src/events/access/access-token-handlers.ts';
import { catalogProducts } from '../../../../src/events/catalog/catalog-handlers.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { importSale } from '../../../../src/events/sales/import-sale.ts';
import { createLogger } from '../../../../src/logger.ts';
import { createRuntimeApp } from '../../../../src/server/app.ts';
import { openRuntime, type Runtime } from '../../../../src/runtime.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../../../support/api-harness.ts';
import { testBackendEnv } from '../../../support/backends.ts';
import { pdfText } from '../../../labels/pdf-tools.ts';
import { anOrder, getDocument, mint, numberOf } from './invoice-support.ts';

/**
 * The invoice register: numbers FA-<year>-<n> from one continuous sequence, allocated when an invoice
 * is first issued and recorded with it, so that the same invoice keeps its number.
 */

const now = new Date('2026-10-05T08:00:00.000Z');
const clock = { now: () => now };

// 300 at once on the embedded stores (about 3 s; 1,000 took 12 s and proved no more: each of the 300
// appends races every other for the register's next revision); on the production test servers, where
// FerretDB on SQLite reads a whole collection for each lookup, the same race with 40 (100 took 13 s
// there and proved no more): what is proven there is the event store's expected revision deciding
// between concurrent appends. Over HTTP, 20 sales asked twice at once (10 on the production servers,
// where each first request renders its invoice after crossing gRPC: 20 took 14 s).
const onServers = Boolean(process.env.TEST_BACKENDS && process.env.TEST_BACKENDS !== 'embedded');
const burst = onServers ? 40 : 300;
const httpSales = onServers ? 10 : 20;

const sequenceOf = (number: string): number => Number(/^FA-2026-(\d+)$/.exec(number)?.[1]);

describe('the invoice register', () => {
  let api: ApiHarness;
  let coreToken: string;

  beforeAll(async () => {
    api = await startApi({ clock });
    coreToken = await api.tokenFor('core');
  });
  afterAll(async () => api.close());

  it(
    `when ${burst} invoices of distinct sales are issued at once through the command path, they get the numbers 1 to ${burst}, no gap, no duplicate`,
    { timeout: 400_000 },
    async () => {
      const saleIds: number[] = [];
      for (let index = 0; index < burst; index++) saleIds.push((await importSale(api.runtime.salesDeps, anOrder(), systemContext())).saleId);
      await readModelsCaughtUp(api.runtime);
      const invoices = await Promise.all(saleIds.map((saleId) => api.runtime.invoicing.invoiceFor(saleId)));
      const numbers = invoices.map((invoice) => invoice?.number ?? 'none');
      expect(new Set(numbers).size).toBe(burst);
      expect(numbers.map(sequenceOf).sort((a, b) => a - b)).toEqual(Array.from({ length: burst }, (_, index) => index + 1));
      // Asked again, each sale has the same invoice.
      const again = await Promise.all(saleIds.slice(0, 50).map((saleId) => api.runtime.invoicing.invoiceFor(saleId)));
      expect(again.map((invoice) => invoice?.number)).toEqual(numbers.slice(0, 50));
      // The register is the year's stream: one event per number, in order.
      const register = await api.runtime.eventStore.readStream('invoices-2026');
      expect(register.map((event) => (event.data as { number: string }).number)).toEqual(Array.from({ length: burst }, (_, index) => `FA-2026-${index + 1}`));
    },
  );

  it(
    `when ${2 * httpSales} first requests over HTTP arrive at once, with each of ${httpSales} sales asked twice, they answer ${httpSales} consecutive numbers and each sale one number`,
    { timeout: 120_000 },
    async () => {
      const before = (await api.runtime.eventStore.readStream('invoices-2026', { direction: 'backwards', maxCount: 1 }))[0]?.revision ?? -1;
      const saleIds: number[] = [];
      for (let index = 0; index < httpSales; index++) saleIds.push((await importSale(api.runtime.salesDeps, anOrder(), systemContext())).saleId);
      // Imported through the handlers, not the API (whose answer waits for them): the read models are awaited.
      await readModelsCaughtUp(api.runtime);
      const responses = await Promise.all([...saleIds, ...saleIds].map((saleId) => getDocument(api, `/api/sale-invoice/${mint(api, saleId)}`, coreToken)));
      expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
      const numbers = responses.map(numberOf);
      expect(numbers.slice(httpSales)).toEqual(numbers.slice(0, httpSales));
      expect(
        numbers
          .slice(0, httpSales)
          .map(sequenceOf)
          .sort((a, b) => a - b),
      ).toEqual(Array.from({ length: httpSales }, (_, index) => before + 2 + index));
    },
  );

  it('when a product of the catalogue is at 5.5 %, its invoice line shows 5,5 % and the VAT has a 5,5 % line', async () => {
    await catalogProducts(api.runtime.write, [{ sku: 'LIV-CUIS-01', name: 'Livre de cuisine', price: 31.65, vat_rate: 5.5 }], systemContext());
    const { saleId } = await importSale(
      api.runtime.salesDeps,
      { ...anOrder([{ sku: 'LIV-CUIS-01', name: 'Livre de cuisine', qty_ordered: 1, price: 31.65, supplier: null }]), shipping_amount: 0 },
      systemContext(),
    );
    await readModelsCaughtUp(api.runtime);
    const response = await getDocument(api, `/api/sale-invoice/${mint(api, saleId)}`, coreToken);
    expect(response.status).toBe(200);
    const text = await pdfText(response.body as Buffer);
    expect(text).toContain('LIV-CUIS-01 Livre de cuisine');
    expect(text).toContain('1 30,00 € 31,65 € 5,5 % 31,65 €');
    expect(text).toContain('5,5 % 30,00 € 1,65 € 31,65 €');
    expect(text).toContain('Total HT 30,00 €');
    expect(text).toContain('Total TVA 1,65 €');
  });
});

describe('an issued invoice across a restart', () => {
  it('when the same invoice is asked again after a restart, it keeps its number and its bytes', { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'invoice-restart-'));
    const backends = await testBackendEnv(dataDir);
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...backends.env });
    const open = async (): Promise<{ runtime: Runtime; request: supertest.Agent; token: string }> => {
      const runtime = await openRuntime(config, createLogger('silent'), { clock: { now: () => now } });
      await runtime.projections.start();
      const token = (await issueAccessToken(runtime.write, { group: 'core' }, systemContext())).token;
      await readModelsCaughtUp(runtime);
      return { runtime, request: supertest.agent(createRuntimeApp(runtime).callback()), token };
    };
    try {
      const first = await open();
      const { saleId } = await importSale(first.runtime.salesDeps, anOrder(), systemContext());
      await readModelsCaughtUp(first.runtime);
      const harness = { runtime: first.runtime, request: first.request } as ApiHarness;
      const before = await getDocument(harness, `/api/sale-invoice/${mint(harness, saleId)}`, first.token);
      await first.runtime.close();

      const second = await open();
      try {
        const restarted = { runtime: second.runtime, request: second.request } as ApiHarness;
        const after = await getDocument(restarted, `/api/sale-invoice/${mint(restarted, saleId)}`, second.token);
        expect([before.status, after.status]).toEqual([200, 200]);
        expect(numberOf(after)).toBe(numberOf(before));
        expect((after.body as Buffer).equals(before.body as Buffer)).toBe(true);
        expect(await second.runtime.eventStore.readStream('invoices-2026')).toHaveLength(1);
      } finally {
        await second.runtime.close();
      }
    } finally {
      await backends.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('an invoice register whose read model lags behind its log', () => {
  it(
    'when the read model cannot show the register up to its last invoice, a first request answers 503 with Retry-After and issues nothing',
    { timeout: 60_000 },
    async () => {
      const api = await startApi({ clock, env: { READ_YOUR_WRITES_TIMEOUT_MS: '300' } });
      try {
        const coreToken = await api.tokenFor('core');
        const [first, second] = [
          await importSale(api.runtime.salesDeps, anOrder(), systemContext()),
          await importSale(api.runtime.salesDeps, anOrder(), systemContext()),
        ];
        // The read models stop following the log: the first invoice of the year needs none of them.
        await api.runtime.projections.stop();
        const issued = await getDocument(api, `/api/sale-invoice/${mint(api, first.saleId)}`, coreToken);
        expect([issued.status, numberOf(issued)]).toEqual([200, 'FA-2026-1']);

        const response = await getDocument(api, `/api/sale-invoice/${mint(api, second.saleId)}`, coreToken);
        expect(response.status).toBe(503);
        expect(response.headers['retry-after']).toBe('1');
        expect(JSON.parse((response.body as Buffer).toString('utf8'))).toEqual({
          success: false,
          error: 'Service Unavailable',
          message: 'The document register is busy; retry shortly.',
        });
        expect(await api.runtime.eventStore.readStream('invoices-2026')).toHaveLength(1);
      } finally {
        await api.close();
      }
    },
  );
});
