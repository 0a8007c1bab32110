import { rmSync } from 'node:fs';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRuntimeApp } from '../src/rest/app.ts';
import type { Runtime } from '../src/runtime.ts';
import { markdownTable, outcomeLine, type Baselines, type Outcome } from './api-report.ts';
import type { Scenario } from './api-scenarios.ts';
import { startBaselineServer } from './baseline-server.ts';
import { seededDataDir } from './bench-runtime.ts';
import { serveOnLoopback } from './loopback-server.ts';
import { runScenario } from './run-scenario.ts';
import type { LogTally } from './server-log.ts';

/** What the HTTP benchmarks share: a scratch copy of the seeded dataset, the scenario loop against the app and a bare server, the closing report. */

/** A copy of the seeded dataset of `orders` orders: the scenarios write, the seeded dataset stays as it was. Removed on exit or interruption. */
export const scratchCopyOfSeeded = async (orders: number, prefix: string): Promise<{ dataDir: string; remove: () => void }> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), prefix));
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      remove();
      process.exit(130);
    });
  }
  await cp(await seededDataDir(orders), dataDir, { recursive: true });
  return { dataDir, remove };
};

/** Serves the runtime's app and a bare `node:http` server on loopback ports and runs each scenario in turn, printing its line as it ends. */
export const runScenarios = async (
  runtime: Runtime,
  scenarios: readonly Scenario[],
  settings: { seconds: number; connections: number },
): Promise<{ outcomes: Outcome[]; baselines: Baselines }> => {
  const outcomes: Outcome[] = [];
  const baselines: Baselines = {};
  const app = await serveOnLoopback(createRuntimeApp(runtime).callback());
  const baseline = await startBaselineServer();
  try {
    for (const scenario of scenarios) {
      const outcome = await runScenario(scenario, { origins: { app: app.origin, baseline: baseline.origin }, ...settings });
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
  return { outcomes, baselines };
};

/** The server's warnings and errors, the peak memory, then the README's table under `headline`. */
export const printReport = (serverLog: LogTally, results: { outcomes: Outcome[]; baselines: Baselines }, headline: string): void => {
  const logged = serverLog.summary();
  console.log(`\nserver warnings and errors: ${logged.length === 0 ? 'none' : ''}`);
  for (const line of logged) console.log(`  ${line}`);
  console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
  console.log(`\n${headline}\n`);
  console.log(markdownTable(results.outcomes, results.baselines));
};
