import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformTransmissionStreamName } from '../../src/events/e-invoicing/events.ts';
import type { OrderImportPayload } from '../../src/events/sales/import-sale.ts';
import { createPlatformAdapter } from '../../src/e-invoicing/platform-adapter.ts';
import { createPlatformOutbox, type PlatformOutbox } from '../../src/jobs/platform-transmissions.ts';
import { platformDocumentById } from '../../src/projections/e-invoicing/queries.ts';
import { findSaleInvoice } from '../../src/projections/invoicing/queries.ts';
import { createBusinessInvoicer } from '../../src/jobs/business-invoices.ts';
import { catalogProducts } from '../../src/events/catalog/catalog-handlers.ts';
import { systemContext } from '../../src/events/command-context.ts';
import { cancelSale } from '../../src/events/sales/cancel-sale.ts';
import { shipSupplierLine } from '../../src/events/sales/supplier-lines.ts';
import { readModelsCaughtUp } from '../support/api-harness.ts';
import { importOrder, order, startSaleActionsApi, type SaleActionsApi } from '../rest/core/sale-actions/sale-actions-api.ts';
import { startStandInPlatform, type StandInPlatform } from './stand-in-platform.ts';
import { ttcByRate } from './amounts-by-rate.ts';

/**
 * The outbox of the approved platform, in process, against a stand-in platform on a loopback port:
 * business customers' invoices as e-invoices (their Factur-X PDF), issued once their sale is settled
 * if nobody asked before; consumers' sales as the day's e-reporting, each document sent once whatever
 * the platform did meanwhile, each attempt and status an event of the document's stream. The clock is
 * frozen on Monday 5 October 2026, 10:00 in Paris.
 */

// A fictitious company: SIREN 443 061 841, valid in form.
const company = { company_name: 'Atelier Martin SARL', siret: '44306184100013', vat_number: 'FR64443061841' };
const ownStock: OrderImportPayload['items'] = [
  { sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499, supplier: null },
  { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, supplier: null },
];
let increment = 100_300_000;
const anOrder = (overrides: Partial<OrderImportPayload> = {}) =>
  order({
    increment_id: String(++increment),
    items: ownStock,
    grand_total: 758.8,
    payment: { method: 'card', status: 'paid', amount_paid: 758.8 },
    ...overrides,
  });

describe('the platform outbox', () => {
  let api: SaleActionsApi;
  let platform: StandInPlatform;
  let outbox: PlatformOutbox;
  const retryMs = 60_000;

  const outboxWith = (token: string) =>
    createPlatformOutbox(
      api.runtime,
      { adapter: createPlatformAdapter({ url: platform.url, credentials: { kind: 'bearer', token } }), pdf: api.runtime.pdf, from: null },
      { retryDelaysMs: [retryMs], statusEveryMs: 0 },
    );
  const run = async (which = outbox) => {
    await which.run(() => true);
    await readModelsCaughtUp(api.runtime);
  };
  const invoiceOf = async (payload: OrderImportPayload) => {
    const sale = await importOrder(api, payload);
    const invoice = await api.runtime.invoicing.invoiceFor(sale.saleId);
    await readModelsCaughtUp(api.runtime);
    return invoice!.number;
  };
  const typesOf = async (documentId: string) => (await api.stream(platformTransmissionStreamName(documentId))).map((event) => event.type);
  const advanceTo = (instant: string) => api.advance((Date.parse(instant) - api.runtime.clock.now().getTime()) / 1000);

  beforeAll(async () => {
    api = await startSaleActionsApi();
    platform = await startStandInPlatform();
    outbox = outboxWith(platform.token);
  }, 60_000);

  afterAll(async () => {
    await platform?.close();
    await api?.close();
  });

  it('when the platform is down, then up, each business invoice is sent once, as its Factur-X PDF under its number, each attempt recorded', async () => {
    const first = await invoiceOf(anOrder({ business_customer: company }));
    const second = await invoiceOf(anOrder({ business_customer: company }));
    await platform.down();

    await run();
    expect(platform.received).toEqual([]);
    expect(await typesOf(first)).toEqual(['PlatformTransmissionFailed']);
    expect(await platformDocumentById(api.runtime.readStore, first)).toMatchObject({
      kind: 'e-invoice',
      transmission: { status: 'retrying', attempts: 1, lastError: expect.stringMatching(/^not sent: /) },
    });

    await platform.up();
    await run();
    // Not before its backoff.
    expect(platform.received).toEqual([]);
    api.advance(retryMs / 1000);
    await run();
    await run();

    expect([platform.receivedTimes(first), platform.receivedTimes(second)]).toEqual([1, 1]);
    const deposit = platform.stored.get(first)!;
    expect([deposit.kind, deposit.contentType, deposit.body.subarray(0, 5).toString()]).toEqual(['e-invoice', 'application/pdf', '%PDF-']);
    expect(deposit.body.includes('factur-x.xml')).toBe(true);
    expect(await typesOf(first)).toEqual(['PlatformTransmissionFailed', 'PlatformTransmissionSent', 'PlatformStatusReceived']);
    expect(await platformDocumentById(api.runtime.readStore, first)).toMatchObject({
      transmission: { status: 'sent', attempts: 2, platformReference: `pa-${first}` },
      platformStatus: { status: 'deposited' },
    });
  });

  it('when the platform kept a document but its answer was lost, it is sent again under the same identifier and recorded sent once', async () => {
    const number = await invoiceOf(anOrder({ business_customer: company }));
    platform.loseNextAnswer();
    await run();
    api.advance(retryMs / 1000);
    await run();
    await run();

    expect(platform.receivedTimes(number)).toBe(2);
    expect(platform.stored.get(number)).toBeDefined();
    expect(await typesOf(number)).toEqual(['PlatformTransmissionFailed', 'PlatformTransmissionSent', 'PlatformStatusReceived']);
  });

  it('when the platform refuses the credentials, the document is not sent, and the refusal is recorded and shown with its next attempt', async () => {
    const number = await invoiceOf(anOrder({ business_customer: company }));
    await run(outboxWith('a-wrong-token'));

    expect(platform.stored.has(number)).toBe(false);
    const [failed] = await api.stream(platformTransmissionStreamName(number));
    expect(failed).toMatchObject({
      type: 'PlatformTransmissionFailed',
      data: { status: 401, error: 'refused by the platform (HTTP 401): invalid credentials' },
    });
    expect(await platformDocumentById(api.runtime.readStore, number)).toMatchObject({
      transmission: { status: 'retrying', lastError: 'refused by the platform (HTTP 401): invalid credentials', nextAttemptAt: expect.any(String) },
    });
    api.advance(retryMs / 1000);
    await run();
    expect(platform.receivedTimes(number)).toBe(1);
  });

  it('when the platform rejects a document sent, its status and reason are recorded once, and its status is read no more', async () => {
    const number = await invoiceOf(anOrder({ business_customer: company }));
    await run();
    platform.setStatus(number, 'rejected', 'SIREN du destinataire inconnu');
    await run();
    await run();

    const statuses = (await api.stream(platformTransmissionStreamName(number))).filter((event) => event.type === 'PlatformStatusReceived');
    expect(statuses.map((event) => event.data.status)).toEqual(['deposited', 'rejected']);
    expect(await platformDocumentById(api.runtime.readStore, number)).toMatchObject({
      platformStatus: { status: 'rejected', reason: 'SIREN du destinataire inconnu' },
      lifecycleOver: true,
    });
  });

  it('when a day has been over for its grace period, its consumer sales, none invoiced on request, are sent once as its e-reporting, as their invoices would say it', async () => {
    await catalogProducts(
      api.runtime.write,
      [
        { sku: 'FIT-SERVICE', name: 'Montage', price: 60, vat_rate: 10, operation_category: 'services' },
        { sku: 'BOOK-DECO', name: 'Livre déco', price: 25, vat_rate: 5.5 },
      ],
      systemContext(),
    );
    const extras: OrderImportPayload['items'] = [
      { sku: 'FIT-SERVICE', name: 'Montage', qty_ordered: 1, price: 60, supplier: null },
      { sku: 'BOOK-DECO', name: 'Livre déco', qty_ordered: 2, price: 25, supplier: null },
    ];
    const mixed = await importOrder(
      api,
      anOrder({
        items: [...ownStock, ...extras],
        shipping_amount: 29.9,
        grand_total: 898.7,
        payment: { method: 'card', status: 'paid', amount_paid: 898.7 },
      }),
    );
    const cancelled = await importOrder(api, anOrder());
    expect((await cancelSale(api.runtime.salesDeps, { incrementId: cancelled.incrementId, reason: 'Annulation client' }, systemContext())).status).toBe(
      'cancelled',
    );
    await readModelsCaughtUp(api.runtime);
    const today = 'ER-2026-10-05';
    const day = async (id: string) => (await platformDocumentById(api.runtime.readStore, id))!;
    expect(await day(today)).toMatchObject({ sales: 2, cancelledLines: 2 });
    // The same sale's invoice, asked for now, says what its day counts, rate by rate; it adds nothing to the day.
    const invoice = (await api.runtime.invoicing.invoiceFor(mixed.saleId))!;
    await readModelsCaughtUp(api.runtime);
    expect(ttcByRate((await day(today)).amounts)).toEqual(Object.fromEntries(invoice.vat.map((line) => [line.rate, line.ttcCents])));
    expect((await day(today)).amounts['TPS1:1000']).toBe(6_000);
    await run();
    expect(platform.receivedTimes(today)).toBe(0);

    // 00:05 in Paris: the fitting is cancelled, on the new day; the day before is not sent yet.
    advanceTo('2026-10-05T22:05:00.000Z');
    const fitting = mixed.saleProductIds[2]!;
    await cancelSale(api.runtime.salesDeps, { incrementId: mixed.incrementId, saleProductIds: [fitting], reason: 'Annulation client' }, systemContext());
    await readModelsCaughtUp(api.runtime);
    const creditNote = (await api.runtime.invoicing.creditNoteFor(mixed.saleId))!;
    await readModelsCaughtUp(api.runtime);
    await run();
    expect(platform.receivedTimes(today)).toBe(0);
    expect(ttcByRate((await day('ER-2026-10-06')).amounts)).toEqual(Object.fromEntries(creditNote.vat.map((line) => [line.rate, -line.ttcCents])));

    advanceTo('2026-10-05T22:11:00.000Z');
    await run();
    await run();

    expect(platform.receivedTimes(invoice.number)).toBe(0);
    expect(platform.receivedTimes(creditNote.number)).toBe(0);
    expect(platform.receivedTimes(today)).toBe(1);
    expect(platform.receivedTimes('ER-2026-10-06')).toBe(0);
    const xml = platform.stored.get(today)!.body.toString('utf8');
    expect(platform.stored.get(today)!.contentType).toBe('application/xml');
    expect(xml).toContain('<TransactionCount>2</TransactionCount>');
    expect(xml).toContain('<Code>TPS1</Code>');
    // The fitting at 10 %: 60.00 is 54.55 and 5.45 of VAT.
    expect(xml).toContain('<Code>TPS1</Code>\n<TaxableAmount>54.55</TaxableAmount>\n<TaxAmount>5.45</TaxAmount>');
    expect(await typesOf(today)).toEqual(['PlatformTransmissionSent', 'PlatformStatusReceived']);
  });

  it("when a business customer's sale is settled, its invoice is issued without anyone asking, once whatever runs, and sent to the platform once", async () => {
    const invoicer = () => createBusinessInvoicer(api.runtime, { invoicing: api.runtime.invoicing, from: null });
    const first = invoicer();
    const runInvoicer = async (which = first) => {
      await which.run(() => true);
      await readModelsCaughtUp(api.runtime);
    };
    const dropShipped = ownStock.map((item) => ({ ...item, supplier: 'supplier-a' as const }));
    const sale = await importOrder(api, anOrder({ items: dropShipped, business_customer: company }));
    const [table, lamps] = sale.saleProductIds;
    const invoiceNow = () => findSaleInvoice(api.runtime.readStore, sale.saleId);

    await runInvoicer();
    expect(await invoiceNow()).toBeNull();
    await shipSupplierLine(api.runtime.salesDeps, { serviceOrderId: `${sale.incrementId}_${table}`, supplier: 'supplier-a' }, systemContext());
    await readModelsCaughtUp(api.runtime);
    await runInvoicer();
    expect(await invoiceNow()).toBeNull();

    await cancelSale(api.runtime.salesDeps, { incrementId: sale.incrementId, saleProductIds: [lamps!], reason: 'Rupture' }, systemContext());
    await readModelsCaughtUp(api.runtime);
    await runInvoicer();
    await runInvoicer();
    await runInvoicer(invoicer());
    const invoice = await invoiceNow();
    expect(invoice?.invoice.businessCustomer?.siren).toBe('443061841');
    const issued = (await api.stream('invoices-2026')).filter((event) => event.type === 'InvoiceIssued' && event.data.saleId === sale.saleId);
    expect(issued).toHaveLength(1);

    await run();
    await run();
    expect(platform.receivedTimes(invoice!._id)).toBe(1);
    expect(await platformDocumentById(api.runtime.readStore, invoice!._id)).toMatchObject({ kind: 'e-invoice', transmission: { status: 'sent' } });
  });
});

describe('GET /api/platform-documents, and GraphQL platformDocuments', () => {
  let api: SaleActionsApi;
  beforeAll(async () => {
    api = await startSaleActionsApi();
  }, 60_000);
  afterAll(async () => api?.close());

  it('when no platform is configured, it says so (and so does /health/ready), and lists what would be owed to one, never sent', async () => {
    const sale = await importOrder(api, anOrder({ business_customer: company }));
    const invoice = await api.runtime.invoicing.invoiceFor(sale.saleId);

    const answer = await api.get('/api/platform-documents?kind=e-invoice');

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      platform: { configured: false },
      documents: [
        {
          id: invoice!.number,
          kind: 'e-invoice',
          date: '2026-10-05',
          documents: [invoice!.number],
          sales: null,
          cancelled_lines: null,
          recorded_after_sending: null,
          transmission: { status: 'pending', attempts: 0, last_error: null, next_attempt_at: null, sent_at: null, platform_reference: null },
          platform_status: null,
        },
      ],
    });
    expect((await api.get('/api/platform-documents?kind=invoice')).status).toBe(400);
    expect((await api.request.get('/health/ready')).body).toMatchObject({ status: 'ready', platform: 'off' });

    const analyst = await api.tokenFor('analyst', 'dashboards');
    const graphql = await api.request
      .post('/graphql')
      .set('Authorization', `Bearer ${analyst}`)
      .send({ query: '{ platformDocuments(kind: E_INVOICE) { id kind date transmissionStatus attempts platformStatus } }' });
    expect(graphql.body).toEqual({
      data: {
        platformDocuments: [{ id: invoice!.number, kind: 'E_INVOICE', date: '2026-10-05', transmissionStatus: 'PENDING', attempts: 0, platformStatus: null }],
      },
    });
  });
});
