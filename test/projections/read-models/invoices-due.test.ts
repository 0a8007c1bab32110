import { describe, expect, it } from 'vitest';
import { invoicesDueProjection } from '../../../src/projections/invoicing/invoices-due-projection.ts';
import { invoiceDueOf, dueBusinessInvoices } from '../../../src/projections/invoicing/invoices-due-queries.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { eventLog } from './event-log.ts';
import { project } from './project.ts';
import { reformSales } from './reform-sales.ts';
import { cushion, saleImported } from './sale-fixtures.ts';
import { buildScenario } from './scenario.ts';

/** The `invoices_due` read model: how each sale gets its invoice; a business sale's, issued by the service on its own, and when. */
describe('invoices due read model', () => {
  const given = async (events = buildScenario().events) => {
    const store = await openTestReadStore();
    await project(store, [invoicesDueProjection], events);
    return store;
  };

  it('when a business sale is settled, its invoice is due from its last line shipped or cancelled; once issued, it is due no more', async () => {
    const { events } = buildScenario();
    const invoiced = events.findIndex((event) => event.type === 'InvoiceIssued' && event.data.saleId === reformSales.settled);
    const before = await given(events.slice(0, invoiced));
    expect(await invoiceDueOf(before, reformSales.settled)).toMatchObject({
      state: 'awaiting',
      dueAt: '2025-03-19T10:00:00.000Z',
      openLines: [],
      sold: true,
    });
    expect((await dueBusinessInvoices(before, null, '2025-03-19T10:00:00.000Z', 10)).map((sale) => sale._id)).toEqual([reformSales.settled]);
    expect(await dueBusinessInvoices(before, null, '2025-03-19T09:59:59.000Z', 10)).toEqual([]);

    const after = await given(events);
    expect(await invoiceDueOf(after, reformSales.settled)).toMatchObject({ state: 'invoiced' });
    expect(await dueBusinessInvoices(after, null, '2025-03-20T00:00:00.000Z', 10)).toEqual([]);
  });

  it('when a business sale has lines still open, its invoice is due 30 days after it was recorded; a consumer sale is invoiced on request only', async () => {
    const store = await given();
    expect(await invoiceDueOf(store, reformSales.awaiting)).toMatchObject({
      state: 'awaiting',
      date: '2025-03-20',
      dueAt: '2025-04-19T09:00:00.000Z',
      openLines: [1051],
    });
    expect(await dueBusinessInvoices(store, null, '2025-04-19T08:59:59.000Z', 10)).toEqual([]);
    expect((await dueBusinessInvoices(store, null, '2025-04-19T09:00:00.000Z', 10)).map((sale) => sale._id)).toEqual([reformSales.awaiting]);
    expect(await dueBusinessInvoices(store, '2025-03-21', '2025-04-19T09:00:00.000Z', 10)).toEqual([]);
    // A consumer's sale is invoiced on request: nothing is kept for it.
    expect(await invoiceDueOf(store, reformSales.consumer)).toBeNull();
  });

  it('when every line of a business sale without shipping fee is cancelled, nothing was sold and no invoice is due', async () => {
    const log = eventLog();
    const company = { companyName: 'Atelier Martin SARL', siren: '443061841', siret: null, vatNumber: null };
    saleImported(log, {
      saleId: 201,
      incrementId: '100000201',
      orderedAt: '2025-03-18T09:00:00Z',
      products: [cushion],
      businessCustomer: company,
      shippingAmount: 0,
    });
    log.record('sale-100000201', {
      type: 'SaleProductCancelled',
      data: { saleId: 201, saleProductId: cushion.saleProductId, reason: 'no longer wanted', cancelledAt: '2025-03-18T10:00:00Z' },
    });
    const store = await given(log.events);
    expect(await invoiceDueOf(store, 201)).toMatchObject({ state: 'nothing-to-invoice', sold: false });
    expect(await dueBusinessInvoices(store, null, '2026-01-01T00:00:00.000Z', 10)).toEqual([]);
  });
});
