import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalog, demoOrders } from '../../src/cli/demo/demo-data.ts';
import { openSqliteReadStore } from '../../src/projections/read-store/sqlite-read-store.ts';
import { runCli } from '../support/cli-process.ts';
import { liveCollectionName } from '../support/live-read-models.ts';

/** A file of history: demo orders after the seeded ones, their lines' suppliers left to the catalog. */
const orderCount = 200;
const catalog = demoCatalog(42);
const orders = [...demoOrders({ seed: 11, count: orderCount, catalog, from: new Date('2026-10-01T00:00:00Z'), to: new Date('2026-11-01T00:00:00Z') })].map(
  (order, index) => ({ ...order, increment_id: String(900_000_001 + index) }),
);

/** A file large enough for the read models to follow the import on a thread of their own (orders.ts). */
const largeCount = 2_000;
const largeFile = [...demoOrders({ seed: 12, count: largeCount, catalog, from: new Date('2026-10-01T00:00:00Z'), to: new Date('2026-11-01T00:00:00Z') })].map(
  (order, index) => ({ ...order, increment_id: String(910_000_001 + index) }),
);

/** The supplier of each line, as the catalog fills it in when the order leaves it out. */
const supplierOf = (item: (typeof orders)[number]['items'][number]): string | null =>
  item.supplier !== undefined ? item.supplier : (catalog.find((product) => product.sku === item.sku)?.supplier ?? null);
const expectedSupplierLines = orders.flatMap((order) =>
  order.items
    .map(supplierOf)
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
      // The command ends with the read models holding the orders: no server has run.
      expect(await liveDocuments(dataDir, 'sales')).toBe(3 + orderCount);
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

  it(
    `when ${largeCount.toLocaleString('en')} orders are imported, the read models follow on a second thread: the command ends with every sale and line in them, equal to a replay`,
    { timeout: 120_000 },
    async () => {
      const before = { sales: await liveDocuments(dataDir, 'sales'), lines: await liveDocuments(dataDir, 'supplier_lines') };
      const file = path.join(dataDir, 'large-history.json');
      await writeFile(file, JSON.stringify(largeFile));

      const imported = await runCli(dataDir, ['orders', 'import', file]);

      expect(imported.code).toBe(0);
      expect(imported.stderr).toBe('');
      expect(imported.stdout.trimEnd().split('\n').at(-1)).toBe(`${largeCount} order(s): ${largeCount} imported, 0 already there`);
      expect(await liveDocuments(dataDir, 'sales')).toBe(before.sales + largeCount);
      expect(await liveDocuments(dataDir, 'supplier_lines')).toBe(
        before.lines + largeFile.flatMap((order) => order.items.filter((item) => supplierOf(item) !== null)).length,
      );
      const verified = await runCli(dataDir, ['projections', 'verify', '--projection', 'sales', '--projection', 'supplier-lines']);
      expect(verified.code).toBe(0);
    },
  );
});

/** The documents of a read model's live generation, read from the embedded file as it stands. */
const liveDocuments = async (dataDir: string, collection: string): Promise<number> => {
  const store = openSqliteReadStore({ file: path.join(dataDir, 'read-models.sqlite') });
  try {
    const name = await liveCollectionName(store, collection);
    return name === undefined ? 0 : await store.collection(name).countDocuments({});
  } finally {
    await store.close();
  }
};
