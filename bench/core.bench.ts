import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { CommandContext } from '../src/events/command-context.ts';
import { acknowledgeSupplierLine, shipSupplierLine } from '../src/events/sales/supplier-lines.ts';
import { importSale } from '../src/events/sales/import-sale.ts';
import { catalogProducts } from '../src/events/catalog/catalog-handlers.ts';
import { demoCatalog, demoOrders } from '../src/cli/demo/demo-data.ts';
import { openSqliteReadStore } from '../src/projections/read-store/sqlite-read-store.ts';
import { measureProjection } from './backends-projections.ts';
import { machine, openBenchRuntime, rate, seededDataDir } from './bench-runtime.ts';

/**
 * `npm run bench:core`: the event-sourced core, measured.
 * 1. Commands/s through the full handler (read the stream, fold, decide, append with the expected
 *    revision) for acknowledge and ship, one at a time and 32 in flight.
 * 2. Projection catch-up over a store of BENCH_ORDERS (default 100,000) demo orders: events/s of a replay.
 * 3. Start-up: the time for the server's in-memory read models to catch up from that store (catch-up subscriptions).
 * 4. Peak RSS of this process.
 */
const orders = Number(process.env.BENCH_ORDERS ?? 100_000);
const context: CommandContext = { actor: { kind: 'token', group: 'supplier-a', label: 'bench' }, correlationId: randomUUID() };

const supplierLinesOf = async (count: number) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-core-'));
  const runtime = await openBenchRuntime(dataDir, false);
  const catalog = demoCatalog(1);
  await catalogProducts(runtime.write, catalog, { actor: { kind: 'system' }, correlationId: randomUUID() });
  const lines: { serviceOrderId: string; supplier: 'supplier-a' | 'supplier-b' }[] = [];
  const bySku = new Map(catalog.map((item) => [item.sku, item]));
  const pending: Promise<void>[] = [];
  for (const order of demoOrders({ seed: 1, count, catalog, from: new Date('2026-09-01T00:00:00Z'), to: new Date('2026-10-31T00:00:00Z') })) {
    pending.push(
      importSale(runtime.salesDeps, order, context).then((sale) => {
        sale.saleProductIds.forEach((saleProductId, index) => {
          const item = order.items[index]!;
          const supplier = item.supplier === undefined ? bySku.get(item.sku)?.supplier : item.supplier;
          if (supplier) lines.push({ serviceOrderId: `${order.increment_id}_${saleProductId}`, supplier });
        });
      }),
    );
    if (pending.length >= 32) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
  return { runtime, lines, cleanup: async () => { await runtime.close(); await rm(dataDir, { recursive: true, force: true }); } };
};

const timeCommands = async (label: string, inFlight: number, lines: { serviceOrderId: string; supplier: 'supplier-a' | 'supplier-b' }[], run: (line: (typeof lines)[number]) => Promise<{ status: string }>) => {
  const queue = [...lines];
  let accepted = 0;
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let line = queue.shift(); line; line = queue.shift()) {
        if ((await run(line)).status !== 'refused') accepted++;
      }
    }),
  );
  const ms = performance.now() - startedAt;
  console.log(`  ${label.padEnd(34)} ${String(lines.length).padStart(6)} commands  ${rate(lines.length, ms).padStart(9)}  (${accepted} accepted)`);
};

console.log(`bench:core on ${machine()}`);
console.log('\n1. Commands through the full handler (read stream, decide, append with expected revision)');
{
  const { runtime, lines, cleanup } = await supplierLinesOf(2_000);
  const half = Math.floor(lines.length / 2);
  await timeCommands('acknowledge, 1 in flight', 1, lines.slice(0, half), (line) => acknowledgeSupplierLine(runtime.salesDeps, line, context));
  await timeCommands('acknowledge, 32 in flight', 32, lines.slice(half), (line) => acknowledgeSupplierLine(runtime.salesDeps, line, context));
  await timeCommands('ship, 1 in flight', 1, lines.slice(0, half), (line) => shipSupplierLine(runtime.salesDeps, line, context));
  await timeCommands('ship, 32 in flight', 32, lines.slice(half), (line) => shipSupplierLine(runtime.salesDeps, line, context));
  await cleanup();
}

console.log(`\n2. Projection catch-up over ${orders.toLocaleString('en')} demo orders`);
const dataDir = await seededDataDir(orders);
{
  const runtime = await openBenchRuntime(dataDir, true);
  const scratch = await mkdtemp(path.join(tmpdir(), 'bench-replay-'));
  const readStore = openSqliteReadStore({ file: path.join(scratch, 'read-models.sqlite') });
  const { events, seconds, eventsPerSecond } = await measureProjection(readStore, runtime.eventStore);
  console.log(`  replay of ${events.toLocaleString('en')} events into 11 projections: ${seconds.toFixed(1)} s, ${Math.round(eventsPerSecond).toLocaleString('en')} events/s`);
  await readStore.close();
  await rm(scratch, { recursive: true, force: true });
  await runtime.close();
}

console.log('\n3. Start-up: open the store and catch every projection up from its checkpoint, as `npm start` does');
{
  const startedAt = performance.now();
  const runtime = await openBenchRuntime(dataDir, true);
  await runtime.projections.start();
  const ms = performance.now() - startedAt;
  console.log(`  ready in ${(ms / 1000).toFixed(1)} s`);
  await runtime.close();
}
console.log(`\n4. Peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
