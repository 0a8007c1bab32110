import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { startWorker, workerEntry } from '../concurrency/worker-entry.ts';
import type { Runtime } from '../runtime.ts';
import { logUnit, progressBar, type ProgressBar } from './progress-bar.ts';

/**
 * The read models brought up to date by the commands that write much history (`orders import` of a
 * large file, `demo seed`), so that they end with the read models ready rather than leave the work to
 * the server's next start (minutes of 503s after a migration's import).
 *
 * While such a command writes, a second thread follows the log into the read models (its own stores
 * and projection engine, as an instance of its own): on two cores the projections' work runs beside
 * the command's instead of after it. The thread only saves time: once the command has written, it
 * is stopped where it stands (its checkpoints written) and `readModelsCaughtUp` applies what is left.
 * A thread that fails changes nothing but the time.
 */

export type ReadModelsThread = { stop: () => Promise<void> };

/** What the thread tells: only its failure (its end is its exit). */
export type ReadModelsThreadFailure = { error: string };

/** A notice for the operator, on stderr (stdout carries the command's output). */
const say = (line: string): void => void process.stderr.write(`${line}\n`);

/** From this many orders written, the read models follow on a second thread; fewer are applied at the end alone. */
const followedFrom = 2_000;

/** A thread following the log into the read models while a command writes `orders` orders, when they are that many. */
export const followWhileWriting = (orders: number): ReadModelsThread | undefined => {
  if (orders < followedFrom) return undefined;
  const worker = startWorker(workerEntry(new URL('./read-models-worker.ts', import.meta.url), 'read-models-worker'));
  let failed = false;
  const failure = (error: string) => {
    if (!failed) say(`the read models' thread stopped (${error}); they are brought up to date at the end`);
    failed = true;
  };
  worker.on('message', (message: ReadModelsThreadFailure) => failure(message.error));
  worker.on('error', (error) => failure(error.message));
  const exited = once(worker, 'exit');
  return {
    stop: async () => {
      worker.postMessage('stop');
      await exited;
    },
  };
};

/** Beyond this many events left to apply, the catch-up shows a progress bar. */
const barFrom = 10_000;
/** A catch-up run by another instance (the server) that has not moved for this long is left to it. */
const stalledMs = 60_000;

/**
 * Resolves once the read models have applied the log as it is now: this process applies it when no
 * server runs them, else the server does and this waits for it. A server whose read models stop
 * moving is left to catch up alone after `stalledMs`: what was written is written, and the command
 * says so rather than wait forever.
 */
export const readModelsCaughtUp = async (runtime: Runtime): Promise<void> => {
  let done = false;
  const started = runtime.projections.start().finally(() => (done = true));
  let bar: ProgressBar | undefined;
  let last: number | null | undefined;
  let movedAt = Date.now();
  try {
    while (!done) {
      await Promise.race([started, sleep(200)]);
      // The head is known once the engine has set up (not when `start` is called).
      const { position, head } = runtime.projections.progress();
      if (!done && bar === undefined && head - (position ?? -1) > barFrom) bar = progressBar('read models', head + 1, logUnit(runtime));
      bar?.update(Math.min(head + 1, (position ?? -1) + 1));
      if (position !== last) {
        last = position;
        movedAt = Date.now();
      } else if (!done && Date.now() - movedAt > stalledMs) {
        say(
          `the read models have not moved for ${stalledMs / 1000} s (position ${position ?? -1} of ${head}): they will include these changes once the instance running them catches up (see /health)`,
        );
        return;
      }
    }
    await started;
  } finally {
    bar?.stop();
  }
};
