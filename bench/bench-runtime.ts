import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { createLogger } from '../src/logger.ts';
import { openRuntime, type Runtime } from '../src/runtime.ts';
import { seedDemo } from '../src/cli/demo/seed-demo.ts';

/** Shared by the benchmarks: a runtime on a data folder, and a seeded dataset kept between runs. */

export const openBenchRuntime = async (dataDir: string, readYourWrites: boolean): Promise<Runtime> =>
  openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), createLogger('silent'), { readYourWrites, idBlockSize: 1000 });

/**
 * A data folder with `orders` demo orders (seed 42, until 2026-11-01), seeded once and reused: seeding
 * 100,000 orders takes minutes, the figures measured on it do not depend on when it was made.
 */
export const seededDataDir = async (orders: number): Promise<string> => {
  const dataDir = path.resolve('.cache', 'bench', `demo-${orders}`);
  const done = path.join(dataDir, 'seeded');
  if (existsSync(done)) return dataDir;
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const runtime = await openBenchRuntime(dataDir, false);
  const startedAt = performance.now();
  let last = 0;
  await seedDemo(runtime, {
    orders,
    seed: 42,
    until: new Date('2026-11-01T00:00:00Z'),
    concurrency: 32,
    onProgress: (count) => {
      if (count - last >= orders / 10) {
        last = count;
        process.stderr.write(`  seeded ${count}/${orders} orders\n`);
      }
    },
  });
  const seconds = (performance.now() - startedAt) / 1000;
  process.stderr.write(`  seeding took ${seconds.toFixed(0)} s\n`);
  await runtime.close();
  await writeFile(done, JSON.stringify({ at: new Date().toISOString(), seconds }));
  return dataDir;
};

/** The seconds the seeding of a dataset took, when it recorded them (datasets seeded before it did hold a date only). */
export const seedingSeconds = async (dataDir: string): Promise<number | undefined> => {
  try {
    const marker = JSON.parse(await readFile(path.join(dataDir, 'seeded'), 'utf8')) as { seconds?: unknown };
    return typeof marker.seconds === 'number' ? marker.seconds : undefined;
  } catch {
    return undefined;
  }
};

/** The load of the machine, printed beside every benchmark's figures. */
export const uptime = (): string => execFileSync('uptime').toString().trim();

export const machine = (): string =>
  `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()}`;

/** The value below which `p` % of `values` fall (the nearest rank). */
export const percentile = (values: readonly number[], p: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? Number.NaN;

export const rate = (count: number, ms: number): string => `${Math.round((count / ms) * 1000).toLocaleString('en')}/s`;
