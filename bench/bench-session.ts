import { rmSync } from 'node:fs';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { markdownTable, outcomeLine, type Baselines, type Outcome } from './api-report.ts';
import type { Scenario } from './api-scenarios.ts';
import { seededDataDir } from './bench-runtime.ts';
import { runScenario } from './run-scenario.ts';
import type { LogTally } from './server-log.ts';

/** What the HTTP benchmarks share: a scratch copy of the seeded dataset, the scenario loop against the service's process and a bare server's, the closing report. */

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

/** Runs each scenario in turn against the service's process or the bare server's, printing its line as it ends. */
export const runScenarios = async (
  origins: Record<Scenario['target'], string>,
  scenarios: readonly Scenario[],
  settings: { seconds: number; connections: number; peakRssMiB?: () => number },
): Promise<{ outcomes: Outcome[]; baselines: Baselines }> => {
  const outcomes: Outcome[] = [];
  const baselines: Baselines = [];
  for (const scenario of scenarios) {
    const measured = await runScenario(scenario, { origins, ...settings });
    const outcome: Outcome =
      measured.status === 'measured' && scenario.target === 'app' && settings.peakRssMiB ? { ...measured, peakRssMiB: settings.peakRssMiB() } : measured;
    if (scenario.target === 'baseline' && outcome.status === 'measured') {
      baselines.push({ method: outcome.method, bytes: outcome.result.bytesPerAnswer, perSecond: outcome.result.perSecond });
    }
    outcomes.push(outcome);
    console.log(outcomeLine(outcome, baselines));
    // Let requests still in flight when the load stopped (a slow route) end before the next scenario.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { outcomes, baselines };
};

/** The server's warnings and errors, then the README's table under `headline`. */
export const printReport = (serverLog: LogTally, results: { outcomes: Outcome[]; baselines: Baselines }, headline: string): void => {
  const logged = serverLog.summary();
  console.log(`\nserver warnings and errors: ${logged.length === 0 ? 'none' : ''}`);
  for (const line of logged) console.log(`  ${line}`);
  console.log(`\n${headline}\n`);
  console.log(markdownTable(results.outcomes, results.baselines));
};
