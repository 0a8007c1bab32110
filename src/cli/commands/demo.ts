import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/config.ts';
import { prepareDataDir } from '../../config/data-dir.ts';
import { readModelsFile, type Runtime } from '../../runtime.ts';
import { CliError } from '../cli-error.ts';
import type { WithRuntime } from '../cli-runtime.ts';
import { refuseWhileDataDirInUse } from '../data-dir-in-use.ts';
import { seedDemo } from '../demo/seed-demo.ts';
import { tryNext } from '../demo/try-next.ts';
import { examples } from '../help-examples.ts';
import { printLine } from '../output.ts';
import { progressBar } from '../progress-bar.ts';
import { followWhileWriting, readModelsCaughtUp } from '../read-models-thread.ts';

type SeedOptions = { orders: string; seed: string; until?: string };
type ResetOptions = SeedOptions & { yes?: boolean };

type SeedRequest = { orders: number; seed: number; until: Date };

/** The options checked before anything is opened. */
const parseSeedOptions = (values: SeedOptions): SeedRequest => {
  const orders = Number(values.orders);
  if (!/^\d+$/.test(values.orders) || orders < 1 || orders > 1_000_000) throw new CliError('--orders: a whole number from 1 to 1000000');
  const seedValue = Number(values.seed);
  if (!/^\d+$/.test(values.seed) || !Number.isSafeInteger(seedValue)) throw new CliError('--seed: a non-negative whole number');
  const until = values.until === undefined ? startOfToday() : new Date(`${values.until}T00:00:00Z`);
  if (Number.isNaN(until.getTime()) || (values.until !== undefined && until.toISOString().slice(0, 10) !== values.until)) {
    throw new CliError('--until: a date YYYY-MM-DD');
  }
  return { orders, seed: seedValue, until };
};

/** `demo seed`: a deterministic, realistic dataset (see seed-demo.ts), with a progress bar. */
const seed = async (runtime: Runtime, { orders, seed: seedValue, until }: SeedRequest): Promise<void> => {
  const bar = progressBar('demo seed', orders, 'orders');
  const startedAt = Date.now();
  // The read models follow the seeding on a second thread (read-models-thread.ts).
  const follower = followWhileWriting(orders);
  const summary = await seedDemo(runtime, { orders, seed: seedValue, until, onProgress: (done) => bar.update(done) }).finally(async () => {
    bar.stop();
    await follower?.stop();
  });
  const seconds = (Date.now() - startedAt) / 1000;
  await printLine(
    `Seeded in ${seconds.toFixed(1)} s: ${summary.products} products, ${summary.ordersImported} orders imported, ` +
      `${summary.acknowledged} lines acknowledged, ${summary.shipped} shipped, ${summary.cancelled} sales cancelled, ` +
      `${summary.savs} SAVs, ${summary.leads} leads`,
  );
  // The suggestions are read from the read models: brought up to date here (the server's first start then has nothing left to do).
  await readModelsCaughtUp(runtime);
  for (const line of await tryNext(runtime)) await printLine(line);
};

/**
 * `demo reset`: starting over on the embedded default. Everything under DATA_DIR is deleted (the log,
 * the read models, the customers' keys, the tokens' secret and so every token, files and mails), then
 * the demo is seeded again. Only with --yes, never on production stores, never while a process runs on
 * DATA_DIR.
 */
const reset = async (withRuntime: WithRuntime, options: ResetOptions): Promise<void> => {
  const request = parseSeedOptions(options);
  const config = loadConfig();
  const remote = [config.eventStoreUrl && 'EVENTSTORE_URL', config.mongodbUrl && 'MONGODB_URL', config.keystoreMongodbUrl && 'KEYSTORE_MONGODB_URL'].filter(
    Boolean,
  );
  if (remote.length > 0) throw new CliError(`demo reset: starts the embedded data folder over; refused with ${remote.join(', ')} set`);
  prepareDataDir(config.dataDir);
  await refuseWhileDataDirInUse(readModelsFile(config), config.dataDir, 'demo reset');
  const entries = await readdir(config.dataDir);
  if (!options.yes) {
    throw new CliError(
      `demo reset: deletes everything under DATA_DIR=${config.dataDir} (${entries.length} entries: the log, the read models, the customers' keys, ` +
        'the tokens and their secret, files and mails), then seeds the demo again; run it again with --yes',
    );
  }
  await Promise.all(entries.map((entry) => rm(path.join(config.dataDir, entry), { recursive: true, force: true })));
  await printLine(`Deleted ${entries.length} entries under ${config.dataDir}`);
  await withRuntime((runtime) => seed(runtime, request));
};

const startOfToday = (): Date => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
};

export const demoCommand = (program: Command, withRuntime: WithRuntime): void => {
  const demo = program.command('demo').description('demonstration data').addHelpText('after', examples('demo seed --orders 2000'));
  demo
    .command('seed')
    .description(
      'a deterministic dataset: the demo catalog, then orders over the 120 days before --until living their life ' +
        '(acknowledged, shipped, a few cancellations, SAVs and leads); a second run adds nothing',
    )
    .option('--orders <n>', 'how many orders (1 to 1000000)', '1000')
    .option('--seed <s>', 'the random seed: the same seed gives the same data', '42')
    .option('--until <YYYY-MM-DD>', 'the last day of the period (default: today)')
    .addHelpText('after', examples('demo seed', 'demo seed --orders 2000 --seed 7 --until 2026-11-01'))
    .action((options: SeedOptions) => {
      const request = parseSeedOptions(options);
      return withRuntime((runtime) => seed(runtime, request));
    });
  demo
    .command('reset')
    .description(
      "starts over: deletes everything under DATA_DIR (the log, the read models, the customers' keys, every token), then seeds the demo again; " +
        'embedded stores only, with the server stopped',
    )
    .option('--yes', 'yes, delete everything under DATA_DIR')
    .option('--orders <n>', 'how many orders (1 to 1000000)', '1000')
    .option('--seed <s>', 'the random seed: the same seed gives the same data', '42')
    .option('--until <YYYY-MM-DD>', 'the last day of the period (default: today)')
    .addHelpText('after', examples('demo reset --yes --until 2026-11-01'))
    .action((options: ResetOptions) => reset(withRuntime, options));
};
