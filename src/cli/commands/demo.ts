import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import type { Runtime } from '../../runtime.ts';
import { CliError } from '../cli-error.ts';
import type { WithRuntime } from '../cli-runtime.ts';
import { seedDemo } from '../demo/seed-demo.ts';
import { tryNext } from '../demo/try-next.ts';
import { examples } from '../help-examples.ts';
import { printLine } from '../output.ts';

type SeedOptions = { orders: string; seed: string; until?: string };

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

/** `demo seed`: a deterministic, realistic dataset (see seed-demo.ts), with a progress bar on a terminal. */
const seed = async (runtime: Runtime, { orders, seed: seedValue, until }: SeedRequest): Promise<void> => {
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar(
        { format: 'orders {bar} {value}/{total} ({percentage}%) eta {eta}s', stream: process.stderr },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  bar?.start(orders, 0);
  const startedAt = Date.now();
  const summary = await seedDemo(runtime, { orders, seed: seedValue, until, onProgress: (done) => bar?.update(done) });
  bar?.stop();
  const seconds = (Date.now() - startedAt) / 1000;
  await printLine(
    `Seeded in ${seconds.toFixed(1)} s: ${summary.products} products, ${summary.ordersImported} orders imported, ` +
      `${summary.acknowledged} lines acknowledged, ${summary.shipped} shipped, ${summary.cancelled} sales cancelled, ` +
      `${summary.savs} SAVs, ${summary.leads} leads`,
  );
  // The suggestions are read from the read models: brought up to date here (the server's first start then has nothing left to do).
  await runtime.projections.start();
  for (const line of await tryNext(runtime)) await printLine(line);
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
};
