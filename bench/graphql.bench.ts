import { execFileSync } from 'node:child_process';
import { loadConfig } from '../src/config/config.ts';
import { issueAccessToken } from '../src/events/access/access-token-handlers.ts';
import { systemContext } from '../src/events/command-context.ts';
import { createLogger } from '../src/logger.ts';
import { openRuntime, type Runtime } from '../src/runtime.ts';
import { startBaselineProcess, type BaselineProcess } from './baseline-server.ts';
import { printReport, runScenarios, scratchCopyOfSeeded } from './bench-session.ts';
import { machine } from './bench-runtime.ts';
import { graphqlScenarios } from './graphql-scenarios.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

/**
 * `npm run bench:graphql`: the analysts' GraphQL queries under load, on a copy of the seeded demo
 * dataset (BENCH_ORDERS orders, default 100,000, dated until 2026-11-01): the dashboard by day over the
 * last 90 days of orders and the planning occupancy over 30 days, beside the REST call reading the same
 * planning read model and a bare `node:http` server. The service runs in a process of its own, as
 * `npm start` runs it. BENCH_DURATION seconds per scenario (default 10), BENCH_CONNECTIONS connections (default 10).
 */
const orders = Number(process.env.BENCH_ORDERS ?? 100_000);
const seconds = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const period = { dashboardFrom: '2026-08-03', dashboardTo: '2026-10-31', planningFrom: '2026-11-01', planningTo: '2026-11-30' };

console.log(`bench:graphql on ${machine()}`);
console.log(`uptime: ${execFileSync('uptime').toString().trim()}`);
console.log(`dataset: ${orders.toLocaleString('en')} demo orders; ${seconds} s per scenario, ${connections} connections\n`);

const { dataDir, remove } = await scratchCopyOfSeeded(orders, 'bench-graphql-');
let server: ServerProcess | undefined;
let baseline: BaselineProcess | undefined;
let runtime: Runtime | undefined;
try {
  // The bench measures throughput: no per-token rate limit.
  server = await startServerProcess(dataDir, { GRAPHQL_RATE_LIMIT: '0' });
  console.log(`read models built from the log and ready in ${(server.readyMs / 1000).toFixed(1)} s\n`);
  runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), createLogger('silent'), { readYourWrites: true });
  await runtime.projections.start();
  const token = async (group: 'analyst' | 'core') => (await issueAccessToken(runtime!.write, { group, label: `bench-${group}` }, systemContext())).token;
  const tokens = { analyst: await token('analyst'), core: await token('core') };
  baseline = await startBaselineProcess();
  const results = await runScenarios({ app: server.origin, baseline: baseline.origin }, graphqlScenarios(tokens, period), { seconds, connections });
  console.log(`\nthe server's peak RSS: ${server.peakRssMiB().toFixed(0)} MiB`);
  printReport(server.log, results, `${machine()}; ${orders.toLocaleString('en')} demo orders; ${seconds} s per scenario, ${connections} connections`);
} finally {
  await runtime?.close();
  await server?.stop();
  await baseline?.stop();
  remove();
}
