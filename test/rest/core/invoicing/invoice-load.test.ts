import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealActionToken } from '../../../../src/events/access/action-token.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { cancelSale } from '../../../../src/events/sales/cancel-sale.ts';
import { importSale, type OrderImportPayload } from '../../../../src/events/sales/import-sale.ts';
import { startApi, type ApiHarness } from '../../../support/api-harness.ts';

/**
 * Invoices under load, the server hosted by this process: the PDFs are rendered by the worker threads,
 * so the event loop keeps answering the other routes; an invoice asked again is not rendered again.
 */

const now = new Date('2026-10-03T08:00:00.000Z');
let lastIncrementId = 720_000_000;

const anOrder = (): OrderImportPayload => ({
  increment_id: String(++lastIncrementId),
  created_at: '2026-10-02T09:14:00+02:00',
  customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin' },
  shipping_address: { firstname: 'Claire', lastname: 'Martin', street: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon', country_id: 'FR' },
  items: [
    { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', qty_ordered: 1, price: 649, supplier: 'supplier-a', carrier: 'Geodis' },
    { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, supplier: null },
  ],
  payment: { method: 'card', status: 'paid', amount_paid: 908.8 },
});

describe('invoices under load', () => {
  let api: ApiHarness;
  let coreToken: string;
  let supplierToken: string;

  beforeAll(async () => {
    api = await startApi({ clock: { now: () => now } });
    coreToken = await api.tokenFor('core');
    supplierToken = await api.tokenFor('supplier-a');
  });
  afterAll(async () => api.close());

  const invoiceToken = (saleId: number): string => {
    const iat = Math.floor(now.getTime() / 1000);
    return sealActionToken({ jti: randomUUID(), action: 'invoice', saleId, iat, exp: iat + 3600 }, api.runtime.tokenSecret);
  };
  const getInvoice = (token: string) => api.request.get(`/api/sale-invoice/${token}`).set('Authorization', `Bearer ${coreToken}`).buffer(true);

  // Rendered on the event loop (40 to 80 ms a document), the invoices would hold get-sales until the
  // last of them: it would find no document left to render. No clock is read: a machine whose cores are
  // busy with other work renders more slowly and leaves more documents in the renderers.
  it('when 20 invoices of distinct sales render at once, get-sales is answered while they are still being rendered, by the renderers', async () => {
    const sales = [];
    for (let index = 0; index < 20; index++) sales.push(await importSale(api.runtime.salesDeps, anOrder(), systemContext()));
    const tokens = sales.map((sale) => invoiceToken(sale.saleId));
    // As the server does at start: the renderers have loaded pdfmake and the fonts before the load.
    api.runtime.pdf.warmUp();
    expect((await getInvoice(invoiceToken((await importSale(api.runtime.salesDeps, anOrder(), systemContext())).saleId))).status).toBe(200);
    const renderedBefore = api.runtime.pdf.stats().rendered;

    let lastInvoiceAt = 0;
    const invoices = Promise.all(
      tokens.map(async (token) => {
        const response = await getInvoice(token);
        lastInvoiceAt = performance.now();
        return response.status;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const sales200 = await api.request.get('/api/supplier-a/get-sales').set('Authorization', `Bearer ${supplierToken}`);
    const getSalesAt = performance.now();
    const renderersWhenAnswered = api.runtime.pdf.stats();
    const statuses = await invoices;

    expect(sales200.status).toBe(200);
    expect(statuses).toEqual(tokens.map(() => 200));
    expect(api.runtime.pdf.stats().rendered - renderedBefore).toBe(20);
    expect(getSalesAt).toBeLessThan(lastInvoiceAt);
    expect(renderersWhenAnswered.running + renderersWhenAnswered.waiting.person).toBeGreaterThan(0);
  });

  it('when the same invoice is asked twice, it is rendered once; once the sale changes, the invoice stays the same bytes, still rendered once', async () => {
    const { saleId, incrementId, saleProductIds } = await importSale(api.runtime.salesDeps, anOrder(), systemContext());
    const before = api.runtime.pdf.stats().rendered;
    const first = await getInvoice(invoiceToken(saleId));
    const again = await getInvoice(invoiceToken(saleId));
    expect([first.status, again.status]).toEqual([200, 200]);
    expect((again.body as Buffer).equals(first.body as Buffer)).toBe(true);
    expect(api.runtime.pdf.stats().rendered - before).toBe(1);

    // An issued invoice never changes: the cancellation gets a credit note (rendered when asked for).
    await cancelSale(api.runtime.salesDeps, { incrementId, saleProductIds: [saleProductIds[1]!], reason: 'Annulation client' }, systemContext());
    const afterCancellation = await getInvoice(invoiceToken(saleId));
    expect(afterCancellation.status).toBe(200);
    expect((afterCancellation.body as Buffer).equals(first.body as Buffer)).toBe(true);
    expect(api.runtime.pdf.stats().rendered - before).toBe(1);
  });
});
