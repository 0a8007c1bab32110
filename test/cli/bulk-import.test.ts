import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalog, demoOrders } from '../../src/cli/demo/demo-data.ts';
import { runCli } from '../support/cli-process.ts';

/** A file of history: demo orders after the seeded ones, their lines' suppliers left to the catalog. */
const orderCount = 200;
const catalog = demoCatalog(42);
const orders = [...demoOrders({ seed: 11, count: orderCount, catalog, from: new Date('2026-10-01T00:00:00Z'), to: new Date('2026-11-01T00:00:00Z') })].map(
  (order, index) => ({ ...order, increment_id: String(900_000_001 + index) }),
);

/** The supplier of each line, as the catalog fills it in when the order leaves it out. */
const expectedSupplierLines = orders.flatMap((order) =>
  order.items
    .map((item) => (item.supplier !== undefined ? item.supplier : (catalog.find((product) => product.sku === item.sku)?.supplier ?? null)))
    .filter((supplier) => supplier !== null)
    .map((supplier) => [`sale-${order.increment_id}`, supplier]),
);

describe('orders import of a file of history, as a retailer moving in runs it', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'bulk-import-'));
  });
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  it(
    `when ${orderCount} orders are imported at once, each line gets its supplier from the catalog and the read models equal a replay of the log`,
    { timeout: 120_000 },
    async () => {
      expect((await runCli(dataDir, ['demo', 'seed', '--orders', '3', '--until', '2026-11-01'])).code).toBe(0);
      const file = path.join(dataDir, 'history.json');
      await writeFile(file, JSON.stringify(orders));

      const imported = await runCli(dataDir, ['orders', 'import', file]);

      expect(imported.code).toBe(0);
      expect(imported.stdout.trimEnd().split('\n').at(-1)).toBe(`${orderCount} order(s): ${orderCount} imported, 0 already there`);
      const replayed = (await runCli(dataDir, ['events', 'replay'])).stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; stream: string; data: { supplier?: string } });
      const allocated = replayed
        .filter((event) => event.type === 'TrackingNumberAllocated' && event.stream >= 'sale-900000001')
        .map((event) => [event.stream, event.data.supplier]);
      // Orders are imported side by side: the log interleaves them, each sale's lines in their order.
      expect(allocated.sort(([a], [b]) => String(a).localeCompare(String(b)))).toEqual(expectedSupplierLines);

      const verified = await runCli(dataDir, ['projections', 'verify']);
      expect(verified.stderr).toBe('');
      expect(verified.code).toBe(0);
      expect(verified.stdout).toContain('Read models match a rebuild from the log');
    },
  );
});
