import { readModelsCaughtUp } from '../support/api-harness.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/events/command-context.ts';
import { acknowledgeSupplierLine } from '../../src/events/sales/supplier-lines.ts';
import { sample } from '../support/prometheus-sample.ts';
import { startGraphqlApi, type GraphqlApi } from './graphql-api.ts';
import { importOrder, order } from './seed.ts';

/**
 * Answers kept while their read models have not changed: the dashboard, the planning occupancy and
 * the supplier performance, asked again, are answered from memory until an event changes the read model they are drawn from.
 */

const dashboard = `query($from: LocalDate!, $to: LocalDate!) {
  dashboard(from: $from, to: $to) { totals { orders revenue } buckets { start orders } }
}`;
const occupancy = `query($from: LocalDate!, $to: LocalDate!) {
  planningOccupancy(from: $from, to: $to) { holidays { date label } }
}`;
const performance = `query($from: LocalDate!, $to: LocalDate!) {
  supplierPerformance(from: $from, to: $to) { supplier received acknowledged }
}`;
const october = { from: '2026-10-01', to: '2026-10-31' };

describe('answers kept while their read models are unchanged', () => {
  let api: GraphqlApi;
  let sofa: number;
  beforeEach(async () => {
    api = await startGraphqlApi();
    ({ sofa } = await importOrder(api, order({ increment_id: '100000001', created_at: '2026-10-02T10:00:00+02:00', grand_total: 100 })));
  });
  afterEach(async () => api.close());

  /** The kept-answer counters of /metrics: answered from memory (hit) or computed (miss). */
  const kept = async (): Promise<{ hit: number; miss: number }> => {
    const response = await api.request.get('/metrics').set('Authorization', `Bearer ${api.token}`);
    const count = (outcome: string) => sample(response.text, `graphql_kept_answers_total{outcome="${outcome}"}`) ?? 0;
    return { hit: count('hit'), miss: count('miss') };
  };

  it('when the dashboard is asked again with nothing changed, the same answer comes from memory', async () => {
    const first = await api.post(dashboard, october);
    const second = await api.post(dashboard, october);
    expect(second.body).toEqual(first.body);
    expect(first.body.data.dashboard.totals.orders).toBe(1);
    expect(await kept()).toEqual({ hit: 1, miss: 1 });
  });

  it('when an order is imported between two asks, the second answer counts it', async () => {
    expect((await api.data(dashboard, october)).dashboard.totals.orders).toBe(1);
    await importOrder(api, order({ increment_id: '100000002', created_at: '2026-10-03T10:00:00+02:00', grand_total: 250 }));
    const after = await api.data(dashboard, october);
    expect(after.dashboard.totals.orders).toBe(2);
    expect(after.dashboard.buckets.find((bucket: { start: string }) => bucket.start === '2026-10-03')).toEqual({ start: '2026-10-03', orders: 1 });
    expect(await kept()).toEqual({ hit: 0, miss: 2 });
  });

  it('when only another read model changes (a token issued), the dashboard is still answered from memory', async () => {
    await api.data(dashboard, october);
    await api.tokenFor('core', 'another-tool');
    await api.data(dashboard, october);
    expect(await kept()).toEqual({ hit: 1, miss: 1 });
  });

  it('when other variables are asked, each period is computed once and kept apart', async () => {
    const september = { from: '2026-09-01', to: '2026-09-30' };
    await api.data(dashboard, october);
    expect((await api.data(dashboard, september)).dashboard.totals.orders).toBe(0);
    expect((await api.data(dashboard, october)).dashboard.totals.orders).toBe(1);
    expect(await kept()).toEqual({ hit: 1, miss: 2 });
  });

  it('when a holiday is declared between two asks of the planning occupancy, the second answer shows it', async () => {
    expect((await api.data(occupancy, october)).planningOccupancy.holidays).toEqual([]);
    await api.staffData('mutation { declareHoliday(date: "2026-10-08", label: "Inventaire") { status } }');
    expect((await api.data(occupancy, october)).planningOccupancy.holidays).toEqual([{ date: '2026-10-08', label: 'Inventaire' }]);
    expect(await kept()).toEqual({ hit: 0, miss: 2 });
  });

  it('when a supplier line is acknowledged between two asks of the supplier performance, the second answer counts it', async () => {
    const before = await api.data(performance, october);
    expect(before.supplierPerformance).toContainEqual({ supplier: 'supplier-a', received: 1, acknowledged: 0 });
    await acknowledgeSupplierLine(api.runtime.salesDeps, { serviceOrderId: `100000001_${sofa}`, supplier: 'supplier-a' }, systemContext());
    await readModelsCaughtUp(api.runtime);
    const after = await api.data(performance, october);
    expect(after.supplierPerformance).toContainEqual({ supplier: 'supplier-a', received: 1, acknowledged: 1 });
    expect(await api.data(performance, october)).toEqual(after);
    expect(await kept()).toEqual({ hit: 1, miss: 2 });
  });

  it('when an answer has errors, or the operation also reads what is not kept, it is computed every time', async () => {
    for (let ask = 0; ask < 2; ask++) {
      const reversed = await api.post(dashboard, { from: '2026-10-31', to: '2026-10-01' });
      expect(reversed.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      const mixed = await api.data(`{ dashboard(from: "2026-10-01", to: "2026-10-31") { totals { orders } } sale(incrementId: "100000001") { incrementId } }`);
      expect(mixed).toEqual({ dashboard: { totals: { orders: 1 } }, sale: { incrementId: '100000001' } });
    }
    expect(await kept()).toEqual({ hit: 0, miss: 2 });
  });
});
