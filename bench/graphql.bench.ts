import { loadavg } from 'node:os';
import { loadConfig } from '../src/config/config.ts';
import { issueAccessToken } from '../src/events/access/access-token-handlers.ts';
import { systemContext } from '../src/events/command-context.ts';
import { openRuntime } from '../src/runtime.ts';
import { printReport, runScenarios, scratchCopyOfSeeded } from './bench-session.ts';
import { machine, rate } from './bench-runtime.ts';
import { graphqlScenarios } from './graphql-scenarios.ts';
import { tallyingLogger } from './server-log.ts';

/**
 * `npm run bench:graphql`: the analysts' GraphQL queries under load, in process, on a copy of the
 * seeded demo dataset (BENCH_ORDERS orders, default 100,000, dated until 2026-11-01): the dashboard by
 * day over the last 90 days of orders and the planning occupancy over 30 days, beside the REST call
 * reading the same planning read model and a bare `node:http` server, all in the same run.
 * BENCH_DURATION seconds per scenario (default 10), BENCH_CONNECTIONS connections (default 10).
 */
const orders = Number(process.env.BENCH_ORDERS ?? 100_000);
const seconds = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const period = { dashboardFrom: '2026-08-03', dashboardTo: '2026-10-31', planningFrom: '2026-11-01', planningTo: '2026-11-30' };

console.log(`bench:graphql on ${machine()}; load average ${loadavg().map((load) => load.toFixed(1)).join(', ')} at start`);
console.log(`dataset: ${orders.toLocaleString('en')} demo orders; ${seconds} s per scenario, ${connections} connections\n`);

const { dataDir, remove } = await scratchCopyOfSeeded(orders, 'bench-graphql-');
const serverLog = tallyingLogger();
const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }), serverLog.logger, { readYourWrites: true, idBlockSize: 1000 });
let results: Awaited<ReturnType<typeof runScenarios>>;
try {
  const events = await runtime.eventStore.headPosition();
  const catchUpStartedAt = performance.now();
  await runtime.projections.start();
  const catchUpMs = performance.now() - catchUpStartedAt;
  console.log(`projections caught up with ${events.toLocaleString('en')} events in ${(catchUpMs / 1000).toFixed(1)} s (${rate(events, catchUpMs)})\n`);

  const token = async (group: 'analyst' | 'core') => (await issueAccessToken(runtime.write, { group, label: `bench-${group}` }, systemContext())).token;
  const tokens = { analyst: await token('analyst'), core: await token('core') };
  results = await runScenarios(runtime, graphqlScenarios(tokens, period), { seconds, connections });
} finally {
  await runtime.close();
  remove();
}

printReport(serverLog, results, `${machine()}; ${orders.toLocaleString('en')} demo orders; ${seconds} s per scenario, ${connections} connections`);
