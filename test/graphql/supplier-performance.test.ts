import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/events/command-context.ts';
import { cancelSale } from '../../src/events/sales/cancel-sale.ts';
import { acknowledgeSupplierLine, shipSupplierLine } from '../../src/events/sales/supplier-lines.ts';
import { startGraphqlApi, steppingClock, type GraphqlApi } from './graphql-api.ts';
import { importOrder, order } from './seed.ts';

const performance = `query($from: LocalDate!, $to: LocalDate!, $supplier: String) {
  supplierPerformance(from: $from, to: $to, supplier: $supplier) {
    supplier received acknowledged shipped cancelled openBacklog
    ackDelay { samples median p90 }
    shipDelay { samples median p90 }
  }
}`;

const noDelay = { samples: 0, median: null, p90: null };

describe('the supplierPerformance query', () => {
  let api: GraphqlApi;
  let clock: ReturnType<typeof steppingClock>;
  beforeEach(async () => {
    clock = steppingClock('2026-10-05T08:00:00.000Z');
    api = await startGraphqlApi({ clock });
    const deps = api.runtime.salesDeps;
    const context = systemContext();
    // Order 100004512 at 08:00 in Paris (06:00 UTC): a sofa of supplier-a, a table from stock, lamps of supplier-b.
    const first = await importOrder(api, order({ created_at: '2026-10-05T08:00:00+02:00' }));
    // Order 100004513 at 07:00 in Paris: one sofa of supplier-a.
    const second = await importOrder(
      api,
      order({
        increment_id: '100004513',
        created_at: '2026-10-05T07:00:00+02:00',
        items: [order().items[0]!],
        grand_total: 649,
        payment: { method: 'card', status: 'paid', amount_paid: 649 },
      }),
    );
    // At 10:00 in Paris, both lines of the first order are acknowledged: 2 h after it.
    await acknowledgeSupplierLine(deps, { serviceOrderId: `100004512_${first.sofa}`, supplier: 'supplier-a' }, context);
    await acknowledgeSupplierLine(deps, { serviceOrderId: `100004512_${first.lamp}`, supplier: 'supplier-b' }, context);
    // At 12:00: the second sofa is acknowledged (5 h after its order), the first shipped (4 h), the lamps cancelled.
    clock.advance(120);
    await acknowledgeSupplierLine(deps, { serviceOrderId: `100004513_${second.sofa}`, supplier: 'supplier-a' }, context);
    await shipSupplierLine(deps, { serviceOrderId: `100004512_${first.sofa}`, supplier: 'supplier-a' }, context);
    await cancelSale(deps, { incrementId: '100004512', saleProductIds: [first.lamp], reason: 'Rupture' }, context);
  });
  afterEach(async () => api.close());

  it('when the lines open longer than some days are asked, each supplier counts its open lines and those ordered before that many days ago, today in Paris', async () => {
    const openLines = `query($days: Int!) { supplierOpenLines(olderThanDays: $days) { supplier open openLongerThan olderThanDays } }`;
    // Ten days later, on 15 October: supplier-a's second sofa (ordered on the 5th) is still open.
    clock.advance(10 * 24 * 60);

    expect((await api.data(openLines, { days: 7 })).supplierOpenLines).toEqual([
      { supplier: 'supplier-a', open: 1, openLongerThan: 1, olderThanDays: 7 },
      { supplier: 'supplier-b', open: 0, openLongerThan: 0, olderThanDays: 7 },
    ]);
    // Ordered exactly ten days ago: not longer than ten.
    expect((await api.data(openLines, { days: 10 })).supplierOpenLines[0]).toEqual({ supplier: 'supplier-a', open: 1, openLongerThan: 0, olderThanDays: 10 });
    const refused = await api.post(openLines, { days: 0 });
    expect(refused.body.errors?.[0]).toMatchObject({ message: expect.stringContaining('olderThanDays'), extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('when a day is asked, each supplier shows its lines, its open backlog and its delays in seconds', async () => {
    const { supplierPerformance } = await api.data(performance, { from: '2026-10-05', to: '2026-10-05' });
    expect(supplierPerformance).toEqual([
      {
        supplier: 'supplier-a',
        received: 2,
        acknowledged: 2,
        shipped: 1,
        cancelled: 0,
        openBacklog: 1,
        ackDelay: { samples: 2, median: 12600, p90: 16920 },
        shipDelay: { samples: 1, median: 14400, p90: 14400 },
      },
      {
        supplier: 'supplier-b',
        received: 1,
        acknowledged: 1,
        shipped: 0,
        cancelled: 1,
        openBacklog: 0,
        ackDelay: { samples: 1, median: 7200, p90: 7200 },
        shipDelay: noDelay,
      },
    ]);
  });

  it('when one supplier is asked, only it comes; before its first line, it has nothing and no delay', async () => {
    const { supplierPerformance: onlyB } = await api.data(performance, { from: '2026-10-01', to: '2026-10-31', supplier: 'supplier-b' });
    expect(onlyB.map((row: { supplier: string }) => row.supplier)).toEqual(['supplier-b']);
    const { supplierPerformance: before } = await api.data(performance, { from: '2026-09-01', to: '2026-10-04', supplier: 'supplier-a' });
    expect(before).toEqual([
      { supplier: 'supplier-a', received: 0, acknowledged: 0, shipped: 0, cancelled: 0, openBacklog: 0, ackDelay: noDelay, shipDelay: noDelay },
    ]);
  });

  it('when the supplier is unknown or the period is reversed or longer than 366 days, a BAD_USER_INPUT error says why', async () => {
    const unknown = await api.post(performance, { from: '2026-10-01', to: '2026-10-31', supplier: 'supplier-z' });
    const reversed = await api.post(performance, { from: '2026-10-31', to: '2026-10-01' });
    const tooLong = await api.post(performance, { from: '2025-10-01', to: '2026-10-02' });
    expect(unknown.body.errors[0]).toMatchObject({
      message: 'supplier: unknown supplier, expected one of supplier-a, supplier-b',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(reversed.body.errors[0]).toMatchObject({ message: 'to: must not be before from (2026-10-31)', extensions: { code: 'BAD_USER_INPUT' } });
    expect(tooLong.body.errors[0]).toMatchObject({ message: 'to: the range must not exceed 366 days', extensions: { code: 'BAD_USER_INPUT' } });
  });
});
