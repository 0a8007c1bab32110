import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/events/command-context.ts';
import { captureLead } from '../../src/events/leads/lead-handlers.ts';
import { cancelSale } from '../../src/events/sales/cancel-sale.ts';
import { markRefundPaid } from '../../src/events/sales/refunds.ts';
import type { ApiHarness } from '../support/api-harness.ts';
import { startGraphqlApi, steppingClock, type GraphqlApi } from './graphql-api.ts';
import { importOrder, order } from './seed.ts';

const dashboard = `query($from: LocalDate!, $to: LocalDate!, $granularity: DashboardGranularity) {
  dashboard(from: $from, to: $to, granularity: $granularity) {
    from to granularity timezone
    buckets { ...figures }
    totals { ...figures }
  }
}
fragment figures on DashboardBucket {
  start end orders revenue averageBasket cancellations cancelledProducts refundRequested refundPaid
  savsOpened savsByCategory { key count } savsByType { key count } openSavBacklog leads
}`;

/** An order of one product from own stock, paid in full. */
const orderOf = (incrementId: string, createdAt: string, amount: number) =>
  order({
    increment_id: incrementId,
    created_at: createdAt,
    items: [{ sku: `ART-${incrementId}`, name: 'Buffet', qty_ordered: 1, price: amount, supplier: null }],
    payment: { method: 'card', status: 'paid', amount_paid: amount },
    grand_total: amount,
  });

/** A SAV filed through the core REST route, as the back office files them. */
const fileSav = async (api: ApiHarness, saleProductId: number, complaintName: string, savType: string) => {
  const token = await api.tokenFor('core', 'back-office');
  const response = await api.request
    .post('/api/sale-sav/create-for-sale-product')
    .set('Authorization', `Bearer ${token}`)
    .send({ saleProductId, data: { complaint: 'Le pied est fendu.', complaint_name: complaintName, sav_type: savType } });
  if (response.status !== 201) throw new Error(`SAV not created: ${response.status} ${JSON.stringify(response.body)}`);
};

const lead = (api: ApiHarness, name: string, email: string) => captureLead(api.runtime.write, { name, email, phone: null, projectName: null }, systemContext());

const zero = {
  orders: 0,
  revenue: 0,
  averageBasket: null,
  cancellations: 0,
  cancelledProducts: 0,
  refundRequested: 0,
  refundPaid: 0,
  savsOpened: 0,
  savsByCategory: [],
  savsByType: [],
  leads: 0,
};

describe('the dashboard query', () => {
  let api: GraphqlApi;
  beforeEach(async () => {
    const clock = steppingClock('2026-10-05T08:00:00.000Z');
    api = await startGraphqlApi({ clock });
    const context = systemContext();
    // Orders of 100 (Thursday 1 October), 200 (Friday 2) and 300 (Monday 5), in Paris time.
    const first = await importOrder(api, orderOf('100000001', '2026-10-01T10:00:00+02:00', 100));
    const second = await importOrder(api, orderOf('100000002', '2026-10-02T10:00:00+02:00', 200));
    await importOrder(api, orderOf('100000003', '2026-10-05T09:00:00+02:00', 300));

    // Monday 5 at 10:00 in Paris: the third order is cancelled (300 to refund), two SAVs are filed, two leads come in.
    const cancelled = await cancelSale(api.runtime.salesDeps, { incrementId: '100000003', reason: 'Client' }, context);
    if (cancelled.status !== 'cancelled' || cancelled.refund === null) throw new Error('expected a refund');
    await fileSav(api, first.saleProductIds[0]!, 'Produit endommagé', 'repair');
    await fileSav(api, second.saleProductIds[0]!, 'Produit endommagé', 'replacement');
    await lead(api, 'Alice', 'alice@example.com');
    await lead(api, 'Bruno', 'bruno@example.com');

    // Tuesday 6: the refund is paid, a third SAV is filed, a third lead comes in.
    clock.advance(24 * 60);
    await markRefundPaid(api.runtime.salesDeps, { incrementId: '100000003', refundId: cancelled.refund.refundId }, context);
    await fileSav(api, first.saleProductIds[0]!, 'Pièce manquante', 'repair');
    await lead(api, 'Chloé', 'chloe@example.com');
  });
  afterEach(async () => api.close());

  it('when weeks are asked, 3 orders of 100, 200 and 300 make a revenue of 600 and a basket of 200, split Monday to Sunday', async () => {
    const { dashboard: answer } = await api.data(dashboard, { from: '2026-09-28', to: '2026-10-11', granularity: 'WEEK' });
    expect(answer).toMatchObject({ from: '2026-09-28', to: '2026-10-11', granularity: 'WEEK', timezone: 'Europe/Paris' });
    expect(answer.buckets).toEqual([
      { ...zero, start: '2026-09-28', end: '2026-10-04', orders: 2, revenue: 300, averageBasket: 150, openSavBacklog: 0 },
      {
        start: '2026-10-05',
        end: '2026-10-11',
        orders: 1,
        revenue: 300,
        averageBasket: 300,
        cancellations: 1,
        cancelledProducts: 1,
        refundRequested: 300,
        refundPaid: 300,
        savsOpened: 3,
        savsByCategory: [
          { key: 'Produit endommagé', count: 2 },
          { key: 'Pièce manquante', count: 1 },
        ],
        savsByType: [
          { key: 'repair', count: 2 },
          { key: 'replacement', count: 1 },
        ],
        openSavBacklog: 3,
        leads: 3,
      },
    ]);
    expect(answer.totals).toMatchObject({
      start: '2026-09-28',
      end: '2026-10-11',
      orders: 3,
      revenue: 600,
      averageBasket: 200,
      savsOpened: 3,
      openSavBacklog: 3,
      leads: 3,
    });
  });

  it('when days are asked, each shows what happened on it, a day without orders has no basket, and the SAV backlog grows', async () => {
    const { dashboard: answer } = await api.data(dashboard, { from: '2026-10-05', to: '2026-10-07' });
    expect(answer.granularity).toBe('DAY');
    expect(answer.buckets).toEqual([
      {
        ...zero,
        start: '2026-10-05',
        end: '2026-10-05',
        orders: 1,
        revenue: 300,
        averageBasket: 300,
        cancellations: 1,
        cancelledProducts: 1,
        refundRequested: 300,
        savsOpened: 2,
        savsByCategory: [{ key: 'Produit endommagé', count: 2 }],
        savsByType: [
          { key: 'repair', count: 1 },
          { key: 'replacement', count: 1 },
        ],
        openSavBacklog: 2,
        leads: 2,
      },
      {
        ...zero,
        start: '2026-10-06',
        end: '2026-10-06',
        refundPaid: 300,
        savsOpened: 1,
        savsByCategory: [{ key: 'Pièce manquante', count: 1 }],
        savsByType: [{ key: 'repair', count: 1 }],
        openSavBacklog: 3,
        leads: 1,
      },
      { ...zero, start: '2026-10-07', end: '2026-10-07', openSavBacklog: 3 },
    ]);
  });

  it('when months are asked, they are calendar months clipped to the period', async () => {
    const { dashboard: answer } = await api.data(dashboard, { from: '2026-09-15', to: '2026-10-10', granularity: 'MONTH' });
    expect(answer.buckets.map(({ start, end, orders, revenue }: Record<string, unknown>) => ({ start, end, orders, revenue }))).toEqual([
      { start: '2026-09-15', end: '2026-09-30', orders: 0, revenue: 0 },
      { start: '2026-10-01', end: '2026-10-10', orders: 3, revenue: 600 },
    ]);
  });

  it('when the period is reversed or longer than 366 days, a BAD_USER_INPUT error says why', async () => {
    const reversed = await api.post(dashboard, { from: '2026-10-10', to: '2026-10-01' });
    const tooLong = await api.post(dashboard, { from: '2025-10-01', to: '2026-10-02' });
    expect(reversed.body.errors[0]).toMatchObject({ message: 'to: must not be before from (2026-10-10)', extensions: { code: 'BAD_USER_INPUT' } });
    expect(tooLong.body.errors[0]).toMatchObject({ message: 'to: the range must not exceed 366 days', extensions: { code: 'BAD_USER_INPUT' } });
    expect(reversed.body.data).toBeNull();
  });
});
