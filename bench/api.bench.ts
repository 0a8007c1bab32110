import { rmSync } from 'node:fs';
import { cp, mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { createRuntimeApp } from '../src/rest/app.ts';
import { openRuntime } from '../src/runtime.ts';
import { loadApiFixtures } from './api-fixtures.ts';
import { markdownTable, outcomeLine, type Baselines, type Outcome } from './api-report.ts';
import { apiScenarios } from './api-scenarios.ts';
import { startBaselineServer } from './baseline-server.ts';
import { machine, rate, seededDataDir } from './bench-runtime.ts';
import { serveOnLoopback } from './loopback-server.ts';
import { runScenario } from './run-scenario.ts';
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

// A copy: the scenarios write (tokens, acknowledgements, imports), the seeded dataset stays as it was.
const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-api-'));
const removeCopy = () => rmSync(dataDir, { recursive: true, force: true });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    removeCopy();
    process.exit(130);
  });
}
await cp(await seededDataDir(orders), dataDir, { recursive: true });
const serverLog = tallyingLogger();
const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }), serverLog.logger, { readYourWrites: true, idBlockSize: 1000 });
const outcomes: Outcome[] = [];
const baselines: Baselines = {};
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

  const app = await serveOnLoopback(createRuntimeApp(runtime).callback());
  const baseline = await startBaselineServer();
  try {
    for (const scenario of apiScenarios(fixtures, serverLog, seconds)) {
      const outcome = await runScenario(scenario, { origins: { app: app.origin, baseline: baseline.origin }, seconds, connections });
      // Requests whose connections the load generator dropped at the end are still being served: not in the next figures.
      await Promise.all([app.idle(), baseline.idle()]);
      if (scenario.target === 'baseline' && outcome.status === 'measured') baselines[outcome.method] = outcome.result.perSecond;
      outcomes.push(outcome);
      console.log(outcomeLine(outcome, baselines));
    }
  } finally {
    await app.close();
    await baseline.close();
  }
} finally {
  await runtime.close();
  removeCopy();
}

const logged = serverLog.summary();
console.log(`\nserver warnings and errors: ${logged.length === 0 ? 'none' : ''}`);
for (const line of logged) console.log(`  ${line}`);
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
console.log(`\n${machine()}; ${orders.toLocaleString('en')} demo orders; ${seconds} s per scenario, ${connections} connections\n`);
console.log(markdownTable(outcomes, baselines));
