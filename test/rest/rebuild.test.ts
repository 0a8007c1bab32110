import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/cli/demo/seed-demo.ts';
import { startApi, type ApiHarness } from '../support/api-harness.ts';
import { eventually } from '../support/eventually.ts';
import { readModelsOnMongo } from '../support/mongo-backend.ts';

/**
 * `projections rebuild` while the API serves: every read model is built anew into a generation of
 * its own beside the live one, which keeps answering until the new one is swapped in. The answers are
 * the same before, during and after; writes made meanwhile show at once (read-your-writes holds).
 */
describe('the API while its read models are rebuilt', () => {
  let api: ApiHarness;
  let supplier: string;
  let core: string;
  beforeAll(async () => {
    // Small batches: the rebuild lasts long enough for requests to come in between.
    api = await startApi({ env: { PROJECTION_BATCH_SIZE: '25' } });
    // MongoDB test servers (FerretDB) project two orders of magnitude slower: fewer orders make as long a rebuild.
    await seedDemo(api.runtime, { orders: readModelsOnMongo() ? 40 : 300, seed: 11, until: new Date('2026-11-01T00:00:00Z'), concurrency: 8 });
    supplier = await api.tokenFor('supplier-a');
    core = await api.tokenFor('core');
  }, 120_000);
  afterAll(async () => api.close());

  const answers = async () => ({
    lines: (await api.request.get('/api/supplier-a/get-sales').set('Authorization', `Bearer ${supplier}`)).body,
    sales: await Promise.all([2, 3, 4].map(async (id) => (await api.request.get(`/api/sale/${id}`).set('Authorization', `Bearer ${core}`)).body)),
  });

  it(
    'when every read model is rebuilt, the API answers the same throughout, shows writes made meanwhile, and then reads the new generation',
    { timeout: 120_000 },
    async () => {
      const before = await answers();
      expect(before.lines.length).toBeGreaterThan(0);
      const generations = () => api.runtime.projections.status().map((status) => status.generation);
      expect(new Set(generations())).toEqual(new Set([1]));

      await api.runtime.projections.requestRebuild();
      const during: Awaited<ReturnType<typeof answers>>[] = [];
      let shipped = false;
      while (api.runtime.projections.status().some((status) => status.generation !== 2)) {
        during.push(await answers());
        if (!shipped && during.length === 1) {
          // A write in the middle of the rebuild: read your own write at once, then the rebuild carries it over.
          const line = before.lines[0] as { service_order_id: string };
          const ship = await api.request
            .post('/api/supplier-a/ship-sale')
            .set('Authorization', `Bearer ${supplier}`)
            .send({ service_order_id: line.service_order_id });
          expect(ship.body).toEqual({ success: true, message: 'Votre produit a été expédié avec succès' });
          shipped = true;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await eventually(() => generations().every((generation) => generation === 2), 30_000);
      const after = await answers();

      const shippedLine = (before.lines[0] as { service_order_id: string }).service_order_id;
      const withoutShipped = (lines: { service_order_id: string }[]) => lines.filter((line) => line.service_order_id !== shippedLine);
      const untouched = (sales: { increment_id: string }[]) => sales.filter((sale) => !shippedLine.startsWith(`${sale.increment_id}_`));
      expect(during.length).toBeGreaterThan(1);
      for (const answer of [...during.slice(1), after]) {
        expect(answer.lines.map((line: { service_order_id: string }) => line.service_order_id)).not.toContain(shippedLine);
        expect(withoutShipped(answer.lines).slice(0, 50)).toEqual(withoutShipped(before.lines).slice(0, 50));
        expect(untouched(answer.sales)).toEqual(untouched(before.sales));
      }
      expect((await api.request.get('/health')).body.projections.map((projection: { generation: number }) => projection.generation)).toEqual(generations());
    },
  );
});
