import type { Scenario } from './api-scenarios.ts';
import type { LoadResult } from './http-load.ts';

/** How `npm run bench:api` prints a scenario's outcome: one line as it ends, and the README's table at the end. */

export type Outcome = { scenario: Scenario; method: 'GET' | 'POST' } & (
  | { status: 'measured'; result: LoadResult; connections: number; ranOut: boolean; probeMs: number; observed?: string; note?: string; peakRssMiB?: number }
  | { status: 'unavailable'; reason: string }
);

/** The bare server's rates, per method and size of answer. */
export type Baselines = { method: 'GET' | 'POST'; bytes: number; perSecond: number }[];

/** The bare run a scenario compares with: same method, the answer size closest to its own (by ratio). */
export const baselineOf = (outcome: Outcome & { status: 'measured' }, baselines: Baselines): Baselines[number] | undefined =>
  baselines
    .filter((baseline) => baseline.method === outcome.method)
    .sort(
      (a, b) =>
        Math.abs(Math.log(a.bytes / Math.max(outcome.result.bytesPerAnswer, 1))) - Math.abs(Math.log(b.bytes / Math.max(outcome.result.bytesPerAnswer, 1))),
    )[0];

const integer = (value: number): string => Math.round(value).toLocaleString('en');
const ms = (value: number): string => (value < 10 ? value.toFixed(1) : integer(value));

const perSecond = (outcome: Outcome & { status: 'measured' }): string => {
  const value = outcome.result.perSecond;
  return `${value < 10 ? value.toFixed(value < 1 ? 2 : 1) : integer(value)} ${outcome.scenario.unit ?? 'req'}/s`;
};

const ratio = (outcome: Outcome & { status: 'measured' }, baselines: Baselines): string => {
  if (outcome.scenario.target === 'baseline') return '1 (baseline)';
  const baseline = baselineOf(outcome, baselines);
  return baseline ? `${((outcome.result.perSecond / baseline.perSecond) * 100).toPrecision(2)} %` : 'n/a';
};

const sizeOf = (bytes: number): string => (bytes < 1024 ? `${Math.round(bytes)} B` : `${(bytes / 1024).toFixed(1)} KiB`);

const otherStatuses = (result: LoadResult): string =>
  Object.entries(result.statuses)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, count]) => `${code}: ${integer(count)}`)
    .join(', ');

export const outcomeLine = (outcome: Outcome, baselines: Baselines): string => {
  const name = outcome.scenario.name.padEnd(34);
  if (outcome.status === 'unavailable') return `  ${name} ${outcome.reason}`;
  const { result } = outcome;
  const details = [
    `${integer(result.completed)} answers in ${result.seconds.toFixed(1)} s on ${outcome.connections} connections`,
    `first request alone ${ms(outcome.probeMs)} ms`,
    `${(result.bytesPerAnswer / 1024).toFixed(1)} KiB/answer`,
    ...(outcome.ranOut ? ['every input used'] : []),
    ...(outcome.observed ? [outcome.observed] : []),
    ...(result.non2xx > 0 ? [otherStatuses(result)] : []),
    ...(result.failures > 0 ? [`${integer(result.failures)} errors/timeouts`] : []),
    ...(outcome.note ? [outcome.note] : []),
    ...(outcome.peakRssMiB !== undefined ? [`server peak RSS so far ${integer(outcome.peakRssMiB)} MiB`] : []),
  ];
  return [
    `  ${name} ${perSecond(outcome).padStart(14)}`,
    `p50 ${ms(result.p50Ms).padStart(5)} ms`,
    `p99 ${ms(result.p99Ms).padStart(5)} ms`,
    `non-2xx ${integer(result.non2xx).padStart(5)}`,
    `${ratio(outcome, baselines).padStart(12)} of bare node:http ${outcome.method}${outcome.scenario.target === 'app' ? ` (${sizeOf(baselineOf(outcome, baselines)?.bytes ?? 0)})` : ''}`,
    `(${details.join('; ')})`,
  ].join('  ');
};

export const markdownTable = (outcomes: readonly Outcome[], baselines: Baselines): string => {
  const rows = outcomes.map((outcome) =>
    outcome.status === 'unavailable'
      ? `| ${outcome.scenario.name} | ${outcome.reason} | | | | | |`
      : `| ${outcome.scenario.name} | ${perSecond(outcome)} | ${ms(outcome.result.p50Ms)} | ${ms(outcome.result.p99Ms)} | ${integer(outcome.result.non2xx)} | ${ratio(outcome, baselines)} | ${outcome.peakRssMiB === undefined ? '' : `${integer(outcome.peakRssMiB)} MiB`} |`,
  );
  return [
    '| Scenario | Rate | p50 (ms) | p99 (ms) | Non-2xx | vs bare node:http, same answer size | Server peak RSS so far |',
    '|---|--:|--:|--:|--:|--:|--:|',
    ...rows,
  ].join('\n');
};
