import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../../../src/events/command-context.ts';
import { cancelSale } from '../../../../src/events/sales/cancel-sale.ts';
import { markRefundPaid } from '../../../../src/events/sales/refunds.ts';
import { readModelsCaughtUp } from '../../../support/api-harness.ts';
import { expectJson, importOrder, invalid, notFound, nowAnswered, order, seedCatalog, startCoreSalesApi, type CoreSalesApi } from './core-sales-api.ts';

describe('GET /api/sale-refund/{id}', () => {
  let api: CoreSalesApi;
  let sale: Awaited<ReturnType<typeof importOrder>>;
  beforeEach(async () => {
    api = await startCoreSalesApi();
    await seedCatalog(api);
    sale = await importOrder(api);
  });
  afterEach(async () => api.close());

  it('when nothing was cancelled, it answers an empty array', async () => {
    expectJson(await api.get(`/api/sale-refund/${sale.saleId}`), 200, []);
  });

  it('when paid products were cancelled, it answers the requested refund with its amount, reason and products', async () => {
    const cancelled = await cancelSale(
      api.runtime.salesDeps,
      { incrementId: '100004512', saleProductIds: [sale.table, sale.lamp], reason: 'Client a changé d’avis' },
      systemContext(),
    );
    if (cancelled.status !== 'cancelled' || cancelled.refund === null) throw new Error(`expected a refund, got ${JSON.stringify(cancelled)}`);

    await readModelsCaughtUp(api.runtime);
    expectJson(await api.get(`/api/sale-refund/${sale.saleId}`), 200, [
      {
        id: cancelled.refund.refundId,
        amount: 758.8,
        currency: 'EUR',
        reason: 'Client a changé d’avis',
        sale_product_ids: [sale.table, sale.lamp],
        status: 'requested',
        created_at: nowAnswered,
      },
    ]);
  });

  it('when a refund was paid and the rest of the sale cancelled after, it answers both, in order, the first with paid_at', async () => {
    const first = await cancelSale(api.runtime.salesDeps, { incrementId: '100004512', saleProductIds: [sale.lamp], reason: 'Rupture' }, systemContext());
    if (first.status !== 'cancelled' || first.refund === null) throw new Error('expected a first refund');
    await markRefundPaid(api.runtime.salesDeps, { incrementId: '100004512', refundId: first.refund.refundId }, systemContext());
    const second = await cancelSale(api.runtime.salesDeps, { incrementId: '100004512', reason: 'Annulation client' }, systemContext());
    if (second.status !== 'cancelled' || second.refund === null) throw new Error('expected a second refund');

    // Written through the command handlers, not a route: the read models are awaited as a route's answer would.

    await readModelsCaughtUp(api.runtime);

    const response = await api.get(`/api/sale-refund/${sale.saleId}`);

    expectJson(response, 200, [
      {
        id: first.refund.refundId,
        amount: 259.8,
        currency: 'EUR',
        reason: 'Rupture',
        sale_product_ids: [sale.lamp],
        status: 'paid',
        created_at: nowAnswered,
        paid_at: nowAnswered,
      },
      {
        id: second.refund.refundId,
        amount: 1148,
        currency: 'EUR',
        reason: 'Annulation client',
        sale_product_ids: [sale.sofa, sale.table],
        status: 'requested',
        created_at: nowAnswered,
      },
    ]);
    // The full sale shows the same refunds.
    expect((await api.get(`/api/sale/${sale.saleId}`)).body.refunds).toEqual(response.body);
  });

  it('when an unpaid sale is cancelled, no refund is requested and it answers an empty array', async () => {
    const unpaid = await importOrder(api, order({ increment_id: '100004513', payment: { method: 'transfer', status: 'pending' } }));
    await cancelSale(api.runtime.salesDeps, { incrementId: '100004513', reason: 'Non payée' }, systemContext());

    expectJson(await api.get(`/api/sale-refund/${unpaid.saleId}`), 200, []);
  });

  it('when no sale has the ID, it answers 404', async () => {
    expectJson(await api.get('/api/sale-refund/424242'), 404, notFound('No sale found with ID 424242'));
  });

  it('when the ID is not an integer, it answers 400 naming id', async () => {
    expectJson(await api.get('/api/sale-refund/abc'), 400, invalid('id: must be a positive integer'));
  });
});
