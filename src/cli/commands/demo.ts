import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import type { Runtime } from '../../runtime.ts';
import { CliError } from '../cli-error.ts';
import { seedDemo } from '../demo/seed-demo.ts';
import { printLine } from '../output.ts';

const usage = 'demo seed [--orders N] [--seed S] [--until YYYY-MM-DD]';

/** `demo seed`: a deterministic, realistic dataset (see seed-demo.ts), with a progress bar on a terminal. */
export const demoCommand = async (runtime: Runtime, argv: string[]): Promise<void> => {
  const [action, ...rest] = argv;
  if (action !== 'seed') throw new CliError(`usage: ${usage}`);
  const { values } = parseArgs({ args: rest, options: { orders: { type: 'string' }, seed: { type: 'string' }, until: { type: 'string' } } });
  const orders = Number(values.orders ?? '1000');
  if (!/^\d+$/.test(values.orders ?? '1000') || orders < 1 || orders > 1_000_000) throw new CliError('--orders: a whole number from 1 to 1000000');
  const seed = Number(values.seed ?? '42');
  if (!/^\d+$/.test(values.seed ?? '42') || !Number.isSafeInteger(seed)) throw new CliError('--seed: a non-negative whole number');
  const until = values.until === undefined ? startOfToday() : new Date(`${values.until}T00:00:00Z`);
  if (Number.isNaN(until.getTime()) || (values.until !== undefined && until.toISOString().slice(0, 10) !== values.until)) {
    throw new CliError('--until: a date YYYY-MM-DD');
  }

  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar({ format: 'orders {bar} {value}/{total} ({percentage}%) eta {eta}s', stream: process.stderr }, cliProgress.Presets.shades_classic)
    : undefined;
  bar?.start(orders, 0);
  const startedAt = Date.now();
  const summary = await seedDemo(runtime, { orders, seed, until, onProgress: (done) => bar?.update(done) });
  bar?.stop();
  const seconds = (Date.now() - startedAt) / 1000;
  await printLine(
    `Seeded in ${seconds.toFixed(1)} s: ${summary.products} products, ${summary.ordersImported} orders imported, ` +
      `${summary.acknowledged} lines acknowledged, ${summary.shipped} shipped, ${summary.cancelled} sales cancelled, ` +
      `${summary.savs} SAVs, ${summary.leads} leads`,
  );
};

const startOfToday = (): Date => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
};
