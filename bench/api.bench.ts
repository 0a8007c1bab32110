import { loadavg } from 'node:os';
import { loadConfig } from '../src/config/config.ts';
import { openRuntime } from '../src/runtime.ts';
import { loadApiFixtures } from './api-fixtures.ts';
import { apiScenarios } from './api-scenarios.ts';
import { printReport, runScenarios, scratchCopyOfSeeded } from './bench-session.ts';
import { machine, rate } from './bench-runtime.ts';
import { tallyingLogger } from './server-log.ts';

/**
 * `npm run bench:api`: the HTTP API under load, in process, on a copy of the seeded demo dataset
 * (BENCH_ORDERS orders, default 10,000), beside a bare `node:http` server measured in the same run.
 * Each scenario runs BENCH_DURATION seconds (default 10) on BENCH_CONNECTIONS connections (default 10);
 * acknowledge-sale and ship-sale each use BENCH_LINES distinct open lines at most (default 100 per second).
 * The load generator shares the process (and its event loop) with both servers: the figures are a
 * floor, and the ratio to the bare server is what carries from one machine to another.
 */
const orders = Number(process.env.BENCH_ORDERS ?? 10_000);
const seconds = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
// Distinct open lines per command scenario (BENCH_LINES): a scenario that uses them all stops early.
const linesPerCommandScenario = Number(process.env.BENCH_LINES ?? seconds * 100);

console.log(`bench:api on ${machine()}; load average ${loadavg().map((load) => load.toFixed(1)).join(', ')} at start`);
console.log(`dataset: ${orders.toLocaleString('en')} demo orders; ${seconds} s per scenario, ${connections} connections\n`);

const { dataDir, remove } = await scratchCopyOfSeeded(orders, 'bench-api-');
const serverLog = tallyingLogger();
const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }), serverLog.logger, { readYourWrites: true, idBlockSize: 1000 });
let results: Awaited<ReturnType<typeof runScenarios>>;
try {
  const events = await runtime.eventStore.headPosition();
  const catchUpStartedAt = performance.now();
  await runtime.projections.start();
  const catchUpMs = performance.now() - catchUpStartedAt;
  console.log(`projections caught up with ${events.toLocaleString('en')} events in ${(catchUpMs / 1000).toFixed(1)} s (${rate(events, catchUpMs)})`);

  const fixturesStartedAt = performance.now();
  const fixtures = await loadApiFixtures(runtime, { linesPerCommandScenario });
  console.log(
    `inputs: ${fixtures.sales.length.toLocaleString('en')} sales, ${fixtures.supplierACursors.length.toLocaleString('en')} supplier-a lines, ` +
      `${fixtures.toAcknowledge.length.toLocaleString('en')} lines to acknowledge, ${fixtures.toShip.length.toLocaleString('en')} to ship ` +
      `(ready in ${((performance.now() - fixturesStartedAt) / 1000).toFixed(1)} s)\n`,
  );
  results = await runScenarios(runtime, apiScenarios(fixtures, serverLog, seconds), { seconds, connections });
} finally {
  await runtime.close();
  remove();
}

printReport(serverLog, results, `${machine()}; ${orders.toLocaleString('en')} demo orders; ${seconds} s per scenario, ${connections} connections`);
