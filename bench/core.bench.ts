import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { CommandContext } from '../src/events/command-context.ts';
import { acknowledgeSupplierLine, shipSupplierLine } from '../src/events/sales/supplier-lines.ts';
import { importSale } from '../src/events/sales/import-sale.ts';
import { catalogProducts } from '../src/events/catalog/catalog-handlers.ts';
import { demoCatalog, demoOrders } from '../src/cli/demo/demo-data.ts';
import { openSqliteEventStore } from '../src/events/store/sqlite-event-store.ts';
import { openSqliteReadStore } from '../src/projections/read-store/sqlite-read-store.ts';
import { measureProjection } from './backends-projections.ts';
import { measureWriteFloor } from './write-floor.ts';
import { scratchCopyOfSeeded } from './bench-session.ts';
import { machine, openBenchRuntime, rate } from './bench-runtime.ts';
import { startServerProcess } from './server-process.ts';

/**
 * `npm run bench:core`: the event-sourced core, measured.
 * 1. Commands/s through the full handler (read the stream, fold, decide, append with the expected
 *    revision) for acknowledge and ship, one at a time and 32 in flight.
 * For each size of BENCH_ORDERS (demo orders, default `10000,100000`):
 * 2. The build of every read model from the log into an empty read store: events/s (a first start,
 *    or `projections rebuild`), and this process's peak RSS; then its floor, the same documents
 *    written once into an empty store with nothing else to do (write-floor.ts).
 * 3. The server as `npm start` runs it: its first start (the build, then ready), then a restart on the
 *    built read models, each until /health answers 200.
 */
const sizes = (process.env.BENCH_ORDERS ?? '10000,100000').split(',').map(Number);
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
  return {
    runtime,
    lines,
    cleanup: async () => {
      await runtime.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

const timeCommands = async (
  label: string,
  inFlight: number,
  lines: { serviceOrderId: string; supplier: 'supplier-a' | 'supplier-b' }[],
  run: (line: (typeof lines)[number]) => Promise<{ status: string }>,
) => {
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
console.log(`uptime: ${execFileSync('uptime').toString().trim()}`);
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

const rows: string[] = [];
for (const orders of sizes) {
  console.log(`\n${orders.toLocaleString('en')} demo orders`);
  const { dataDir, remove } = await scratchCopyOfSeeded(orders, 'bench-core-');
  try {
    const log = openSqliteEventStore({ file: path.join(dataDir, 'events.sqlite') });
    const readStore = openSqliteReadStore({ file: path.join(dataDir, 'replay-read-models.sqlite') });
    const replay = await measureProjection(readStore, log);
    await log.close();
    console.log(
      `  2. build of the read models: ${replay.events.toLocaleString('en')} events into 11 projections in ${replay.seconds.toFixed(1)} s, ${Math.round(replay.eventsPerSecond).toLocaleString('en')} events/s`,
    );
    const floorStore = openSqliteReadStore({ file: path.join(dataDir, 'floor-read-models.sqlite') });
    const floor = await measureWriteFloor(readStore, floorStore);
    await floorStore.close();
    await readStore.close();
    const floorRate = replay.events / floor.seconds;
    console.log(
      `     its floor: the ${floor.documents.toLocaleString('en')} documents built (${(floor.documents / replay.events).toFixed(2)} per event) written once, nothing else, ` +
        `in ${floor.seconds.toFixed(1)} s (${Math.round(floor.documents / floor.seconds).toLocaleString('en')} documents/s): at most ${Math.round(floorRate).toLocaleString('en')} events/s`,
    );

    const first = await startServerProcess(dataDir);
    await first.stop();
    const restarted = await startServerProcess(dataDir);
    await restarted.stop();
    console.log(
      `  3. npm start until /health answers 200: first start (build) ${(first.readyMs / 1000).toFixed(1)} s, restart ${(restarted.readyMs / 1000).toFixed(2)} s; server peak RSS ${first.peakRssMiB().toFixed(0)} MiB building, ${restarted.peakRssMiB().toFixed(0)} MiB restarting`,
    );
    rows.push(
      `| ${orders.toLocaleString('en')} | ${replay.events.toLocaleString('en')} | ${replay.seconds.toFixed(1)} s | ${Math.round(replay.eventsPerSecond).toLocaleString('en')} | ${Math.round(floorRate).toLocaleString('en')} | ${(first.readyMs / 1000).toFixed(1)} s | ${(restarted.readyMs / 1000).toFixed(2)} s | ${first.peakRssMiB().toFixed(0)} MiB |`,
    );
  } finally {
    remove();
  }
}
console.log(`\nthis process's peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
console.log(`\n${machine()}\n`);
console.log(
  '| Demo orders | Events | Build of the read models | Events/s | Floor: documents written once, events/s | npm start, first (build + ready) | npm start, restart | Server peak RSS, first start |',
);
console.log('|--:|--:|--:|--:|--:|--:|--:|--:|');
for (const row of rows) console.log(row);
