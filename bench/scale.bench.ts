import { execFile } from 'node:child_process';
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { demoCatalog, demoOrders } from '../src/cli/demo/demo-data.ts';
import { loadConfig } from '../src/config/config.ts';
import { createLogger } from '../src/logger.ts';
import { openRuntime, type Runtime } from '../src/runtime.ts';
import { cliArguments, projectRoot } from '../test/support/service-command.ts';
import { loadApiFixtures } from './api-fixtures.ts';
import { apiScenarios } from './api-scenarios.ts';
import { runScenarios, scratchCopyOfSeeded } from './bench-session.ts';
import { machine, percentile, rate, seededDataDir, seedingSeconds, uptime } from './bench-runtime.ts';
import { dashboardComputedScenario } from './graphql-scenarios.ts';
import { issueAccessToken } from '../src/events/access/access-token-handlers.ts';
import { systemContext } from '../src/events/command-context.ts';
import type { Outcome } from './api-report.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

/**
 * `npm run bench:scale`: the figures of a retailer's size, at each size of BENCH_SIZES (default
 * 10000,100000,1000000 demo orders; each dataset seeded once and kept, see bench-runtime.ts), one
 * column per size, against the targets of a retailer of 1,000,000 orders on one 2-core machine:
 *
 * - importing history: the seeding's rate (`demo seed`, from when the dataset was made), and `orders
 *   import` of a file of BENCH_IMPORT new orders (default 10,000) with the server stopped, then the
 *   time its start takes to bring the read models up to it;
 * - a full build of the read models from the log (the first start), a restart to ready, a blue/green
 *   `projections rebuild` with the server answering get-sales throughout, `projections verify`;
 * - the server's memory at rest and under load (resident, from the kernel), and the reads at 10
 *   connections and the acknowledge/ship commands at 32 (bench:api's scenarios), the GraphQL dashboard
 *   of a year by month, each request computed afresh, once its code has compiled (its first run beside);
 * - the bytes per order of the log and of the read models.
 *
 * BENCH_DURATION seconds per load scenario (default 10).
 */
const sizes = (process.env.BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const seconds = Number(process.env.BENCH_DURATION ?? 10);
const importCount = Number(process.env.BENCH_IMPORT ?? 10_000);
const run = promisify(execFile);

console.log(`bench:scale on ${machine()}`);
console.log(`uptime: ${uptime()}`);
console.log(`sizes: ${sizes.map((size) => size.toLocaleString('en')).join(', ')} demo orders; ${seconds} s per load scenario\n`);

type Figures = Map<string, string>;
const table = new Map<number, Figures>();
const targets = new Map<string, string>();
const row = (figures: Figures, name: string, value: string, target = ''): void => {
  figures.set(name, value);
  if (target) targets.set(name, target);
  console.log(`  ${name}: ${value}`);
};

const mib = (bytes: number): number => bytes / 2 ** 20;
const sizeOfFiles = async (dataDir: string, base: string): Promise<number> => {
  let total = 0;
  for (const suffix of ['', '-wal'])
    total += await stat(path.join(dataDir, `${base}${suffix}`)).then(
      (found) => found.size,
      () => 0,
    );
  return total;
};
/** Runs a CLI command on DATA_DIR: its time, and the last line it printed. */
const cliRun = async (dataDir: string, ...args: string[]): Promise<{ ms: number; lastLine: string }> => {
  const startedAt = performance.now();
  const { stdout } = await run(process.execPath, cliArguments(...args), {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    maxBuffer: 1024 * 1024 * 1024,
  });
  return { ms: performance.now() - startedAt, lastLine: stdout.trimEnd().split('\n').at(-1) ?? '' };
};
const cli = async (dataDir: string, ...args: string[]): Promise<number> => (await cliRun(dataDir, ...args)).ms;
/** Rate and p99; any answer that was not a success named beside them (a status, GraphQL errors, `success: false`). */
const loadFigure = (outcome: Outcome | undefined): string => {
  if (outcome?.status !== 'measured') return outcome?.reason ?? 'not run';
  const failed = Object.entries(outcome.result.statuses).filter(([code]) => !code.startsWith('2'));
  const problems = [
    ...(failed.length > 0 ? [`statuses ${JSON.stringify(Object.fromEntries(failed))}`] : []),
    ...(outcome.observed && /errors in|false in [1-9]/.test(outcome.observed) ? [outcome.observed] : []),
  ];
  return `${Math.round(outcome.result.perSecond).toLocaleString('en')}/s, p99 ${outcome.result.p99Ms} ms${problems.length > 0 ? ` (${problems.join('; ')})` : ''}`;
};

/**
 * A file of `count` demo orders under increment IDs never used: the seeded ones start at 100000001,
 * the load's fresh orders at 900000001 (api-fixtures.ts).
 */
const writeImportFile = async (file: string, count: number): Promise<void> => {
  const orders = [];
  let incrementId = 800_000_001;
  for (const order of demoOrders({ seed: 11, count, catalog: demoCatalog(42), from: new Date('2026-10-01T00:00:00Z'), to: new Date('2026-11-01T00:00:00Z') })) {
    orders.push({ ...order, increment_id: String(incrementId++) });
  }
  await writeFile(file, JSON.stringify(orders));
};

for (const orders of sizes) {
  console.log(`\n== ${orders.toLocaleString('en')} demo orders`);
  const figures: Figures = new Map();
  table.set(orders, figures);
  const seeded = await seededDataDir(orders);
  const seededIn = await seedingSeconds(seeded);
  row(figures, 'demo seed (through the commands)', seededIn === undefined ? 'not recorded' : rate(orders, seededIn * 1000), '5,000 orders/s');
  const { dataDir, remove } = await scratchCopyOfSeeded(orders, 'bench-scale-');
  let server: ServerProcess | undefined;
  let runtime: Runtime | undefined;
  try {
    const logBytes = await sizeOfFiles(dataDir, 'events.sqlite');
    row(figures, 'log on disk, per order', `${Math.round(logBytes / orders).toLocaleString('en')} B (${mib(logBytes).toFixed(0)} MiB)`);

    const first = await startServerProcess(dataDir, { LOG_LEVEL: 'warn' });
    row(figures, 'read models built from the log (first start)', `${(first.readyMs / 1000).toFixed(1)} s`, '10 min at 1,000,000');
    await first.stop();
    const readModelBytes = await sizeOfFiles(dataDir, 'read-models.sqlite');
    row(figures, 'read models on disk, per order', `${Math.round(readModelBytes / orders).toLocaleString('en')} B (${mib(readModelBytes).toFixed(0)} MiB)`);

    server = await startServerProcess(dataDir, { LOG_LEVEL: 'warn', GRAPHQL_RATE_LIMIT: '0' });
    row(figures, 'restart to ready', `${(server.readyMs / 1000).toFixed(2)} s`, '2 s');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    row(figures, 'server memory at rest', `${server.rssMiB().toFixed(0)} MiB`, '400 MiB');

    runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), createLogger('silent'), { readYourWrites: true, idBlockSize: 1000 });
    await runtime.projections.start();
    const fixtures = await loadApiFixtures(runtime, { linesPerCommandScenario: seconds * 3000 });
    const analyst = (await issueAccessToken(runtime.write, { group: 'analyst', label: 'bench-analyst' }, systemContext())).token;
    const scenarios = apiScenarios(fixtures, server.log, seconds, 32).filter((scenario) =>
      [
        'supplier-a get-sales, cache MISS',
        'supplier-b get-sales (no cache)',
        'chatbot sale details',
        'core get sale by ID',
        'acknowledge-sale, distinct lines',
        'ship-sale, distinct lines',
      ].includes(scenario.name),
    );
    // A year by month, a different year each time: never answered from memory. Run twice: during the
    // first run after the start V8 compiles the GraphQL stack on its background threads (about 5 s of
    // CPU taken from the answering thread on two cores); the second is what a server in service answers.
    const year = { from: '2025-11-01', to: '2026-10-31', granularity: 'MONTH' } as const;
    scenarios.push(
      dashboardComputedScenario('GraphQL dashboard, a year by month, computed, first run', analyst, year),
      dashboardComputedScenario('GraphQL dashboard, a year by month, computed', analyst, year),
    );
    const running = server;
    const { outcomes } = await runScenarios({ app: server.origin, baseline: server.origin }, scenarios, { seconds, connections: 10 });
    const outcome = (name: string) => outcomes.find((found) => found.scenario.name === name);
    row(figures, 'supplier-b get-sales, 10 connections', loadFigure(outcome('supplier-b get-sales (no cache)')), 'same rate as at 10,000 (20 %), p99 15 ms');
    row(figures, 'supplier-a get-sales by cursor (miss)', loadFigure(outcome('supplier-a get-sales, cache MISS')), 'same rate as at 10,000 (20 %), p99 15 ms');
    row(figures, 'chatbot sale details', loadFigure(outcome('chatbot sale details')), 'same rate as at 10,000 (20 %), p99 15 ms');
    row(figures, 'core sale by ID', loadFigure(outcome('core get sale by ID')), 'same rate as at 10,000 (20 %), p99 15 ms');
    row(figures, 'acknowledge-sale, read-your-writes, 32 connections', loadFigure(outcome('acknowledge-sale, distinct lines')), '1,000/s, p99 50 ms');
    row(figures, 'ship-sale, read-your-writes, 32 connections', loadFigure(outcome('ship-sale, distinct lines')), '1,000/s, p99 50 ms');
    row(figures, 'GraphQL dashboard, a year by month, computed', loadFigure(outcome('GraphQL dashboard, a year by month, computed')), 'p99 50 ms');
    row(figures, 'the same, its first run after the start', loadFigure(outcome('GraphQL dashboard, a year by month, computed, first run')));
    row(figures, 'server memory, peak under the load above', `${running.peakRssMiB().toFixed(0)} MiB`, '400 MiB');
    // The load above imported orders of its own (fresh lines to acknowledge and ship): the log rebuilt and
    // verified below is longer than the seeded one.
    const events = (await runtime.eventStore.headPosition()) + 1;
    await runtime.close();
    runtime = undefined;

    // Blue/green: the server builds the new generation while the old one answers get-sales.
    const statuses: Record<string, number> = {};
    const latencies: number[] = [];
    let rebuilding = true;
    const reads = (async () => {
      while (rebuilding) {
        // A connection refused or reset is counted by its code, not taken for the end of the benchmark.
        const sentAt = performance.now();
        const status = await fetch(`${running.origin}/api/supplier-b/get-sales`, {
          headers: { authorization: `Bearer ${fixtures.tokens['supplier-b']}` },
        }).then(
          async (answer) => (await answer.arrayBuffer(), String(answer.status)),
          (error: unknown) => String((error as { cause?: { code?: string } }).cause?.code ?? 'fetch failed'),
        );
        statuses[status] = (statuses[status] ?? 0) + 1;
        latencies.push(performance.now() - sentAt);
      }
    })();
    const rebuildMs = await cli(dataDir, 'projections', 'rebuild').finally(() => (rebuilding = false));
    await reads;
    row(
      figures,
      'projections rebuild (blue/green)',
      `${(rebuildMs / 1000).toFixed(1)} s for ${events.toLocaleString('en')} events (${rate(events, rebuildMs)}); get-sales meanwhile: ${JSON.stringify(statuses)}, p99 ${percentile(latencies, 99).toFixed(0)} ms, longest ${Math.max(...latencies).toFixed(0)} ms`,
      '10 min at 1,000,000',
    );
    const verifyMs = await cli(dataDir, 'projections', 'verify');
    row(figures, 'projections verify', `${(verifyMs / 1000).toFixed(1)} s for ${events.toLocaleString('en')} events`, '10 min at 1,000,000');
    await server.stop();
    server = undefined;

    // Importing history: a file of new orders with the server stopped, then the start that builds their read models.
    const file = path.join(dataDir, 'import.json');
    await writeImportFile(file, importCount);
    const { ms: importMs, lastLine } = await cliRun(dataDir, 'orders', 'import', file);
    // Orders already in the log are skipped in a fraction of the time: a figure of those would be no import rate.
    if (lastLine !== `${importCount} order(s): ${importCount} imported, 0 already there`)
      throw new Error(`orders import did not import every order: ${lastLine}`);
    server = await startServerProcess(dataDir, { LOG_LEVEL: 'warn' });
    row(
      figures,
      `orders import of ${importCount.toLocaleString('en')} orders, read models ready`,
      `${rate(importCount, importMs + server.readyMs)} (import ${(importMs / 1000).toFixed(1)} s, then ready in ${(server.readyMs / 1000).toFixed(1)} s)`,
      '5,000 orders/s',
    );
  } finally {
    await runtime?.close();
    await server?.stop();
    remove();
  }
}

// The README's table: one column per size.
console.log(`\n${machine()}; uptime at the end: ${uptime()}\n`);
console.log(`| Measure | ${sizes.map((size) => `${size.toLocaleString('en')} orders`).join(' | ')} | Target |`);
console.log(`|---|${sizes.map(() => '---|').join('')}---|`);
for (const name of table.get(sizes[0]!)!.keys()) {
  console.log(`| ${name} | ${sizes.map((size) => table.get(size)?.get(name) ?? '').join(' | ')} | ${targets.get(name) ?? ''} |`);
}
