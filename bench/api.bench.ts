import { execFileSync } from 'node:child_process';
import { loadConfig } from '../src/config/config.ts';
import { createLogger } from '../src/logger.ts';
import { openRuntime, type Runtime } from '../src/runtime.ts';
import { loadApiFixtures } from './api-fixtures.ts';
import { apiScenarios } from './api-scenarios.ts';
import { startBaselineProcess, type BaselineProcess } from './baseline-server.ts';
import { printReport, runScenarios, scratchCopyOfSeeded } from './bench-session.ts';
import { machine } from './bench-runtime.ts';
import { runPdfScenarios } from './pdf-load.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

/**
 * `npm run bench:api`: the HTTP API under load, on a copy of the seeded demo dataset (BENCH_ORDERS
 * orders, default 10,000). The service runs as `npm start` runs it, in a process of its own: it is
 * started once on the log alone (the first build of its read models), then restarted on them (the time
 * to ready of a restart); a bare `node:http` server runs in another process, answering bodies of the
 * API's sizes. The load comes from this process (autocannon): BENCH_DURATION seconds per scenario
 * (default 10), BENCH_CONNECTIONS connections (default 10), BENCH_COMMAND_CONNECTIONS for acknowledge
 * and ship (default 32), each over BENCH_LINES distinct open lines at most (default 3,000 per second).
 * The inputs (tokens, sales, lines) are prepared beside the running server, as the CLI would.
 * BENCH_SCENARIOS (a pattern) runs only the scenarios it names; the PDF scenarios (pdf-load.ts) run
 * after the table's when it matches "pdf". A tiny run to check the bench works:
 * `BENCH_ORDERS=300 BENCH_DURATION=1 BENCH_SCENARIOS=pdf npm run bench:api`.
 */
const orders = Number(process.env.BENCH_ORDERS ?? 10_000);
const seconds = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const commandConnections = Number(process.env.BENCH_COMMAND_CONNECTIONS ?? 32);
const linesPerCommandScenario = Number(process.env.BENCH_LINES ?? seconds * 3000);
/** BENCH_SCENARIOS: a pattern naming the scenarios to run (the bare server's always run). */
const only = new RegExp(process.env.BENCH_SCENARIOS ?? '', 'i');

console.log(`bench:api on ${machine()}`);
console.log(`uptime: ${execFileSync('uptime').toString().trim()}`);
console.log(
  `dataset: ${orders.toLocaleString('en')} demo orders; ${seconds} s per scenario, ${connections} connections (${commandConnections} for commands)\n`,
);

const { dataDir, remove } = await scratchCopyOfSeeded(orders, 'bench-api-');
let server: ServerProcess | undefined;
let baseline: BaselineProcess | undefined;
let runtime: Runtime | undefined;
try {
  const first = await startServerProcess(dataDir);
  await first.stop();
  console.log(`first start: read models built from the log and ready in ${(first.readyMs / 1000).toFixed(1)} s`);
  server = await startServerProcess(dataDir);
  console.log(`restart on the built read models: ready in ${(server.readyMs / 1000).toFixed(2)} s`);

  const fixturesStartedAt = performance.now();
  // Beside the server, as the CLI is: the server holds the projections, this process follows them.
  runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), createLogger('silent'), { readYourWrites: true, idBlockSize: 1000 });
  await runtime.projections.start();
  const fixtures = await loadApiFixtures(runtime, { linesPerCommandScenario });
  console.log(
    `inputs: ${fixtures.sales.length.toLocaleString('en')} sales, ${fixtures.supplierACursors.length.toLocaleString('en')} supplier-a lines, ` +
      `${fixtures.toAcknowledge.length.toLocaleString('en')} lines to acknowledge, ${fixtures.toShip.length.toLocaleString('en')} to ship ` +
      `(ready in ${((performance.now() - fixturesStartedAt) / 1000).toFixed(1)} s)\n`,
  );
  baseline = await startBaselineProcess();
  const chosen = apiScenarios(fixtures, server.log, seconds, commandConnections).filter(
    (scenario) => scenario.target === 'baseline' || only.test(scenario.name),
  );
  const running = server;
  const results = await runScenarios({ app: server.origin, baseline: baseline.origin }, chosen, {
    seconds,
    connections,
    peakRssMiB: () => running.peakRssMiB(),
  });
  console.log(`\nthe server's peak RSS: ${server.peakRssMiB().toFixed(0)} MiB (restart ready in ${(server.readyMs / 1000).toFixed(2)} s)`);
  if (only.test('pdf')) {
    await runPdfScenarios({ origin: server.origin, baselineOrigin: baseline.origin, fixtures, serverPid: server.pid, serverLog: server.log, seconds });
  }
  printReport(
    server.log,
    results,
    `${machine()}; ${orders.toLocaleString('en')} demo orders; ${seconds} s per scenario, ${connections} connections (${commandConnections} for commands)`,
  );
} finally {
  await runtime?.close();
  await server?.stop();
  await baseline?.stop();
  remove();
}
