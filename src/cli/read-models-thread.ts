import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { startWorker, workerEntry } from '../concurrency/worker-entry.ts';
import type { Runtime } from '../runtime.ts';
import { progressBar } from './progress-bar.ts';

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

export type ReadModelsThreadMessage = { type: 'stopped' } | { type: 'failed'; error: string };

/** A notice for the operator, on stderr (stdout carries the command's output). */
export const sayOnStderr = (line: string): void => void process.stderr.write(`${line}\n`);

/** From this many orders written, the read models follow on a second thread; fewer are applied at the end alone. */
const followedFrom = 2_000;

/** A thread following the log into the read models while a command writes `orders` orders, when they are that many. */
export const followWhileWriting = (orders: number): ReadModelsThread | undefined =>
  orders >= followedFrom
    ? startReadModelsThread((error) => sayOnStderr(`the read models' thread stopped (${error}); they are brought up to date at the end`))
    : undefined;

export const startReadModelsThread = (onFailure: (message: string) => void): ReadModelsThread => {
  const worker = startWorker(workerEntry(new URL('./read-models-worker.ts', import.meta.url), 'read-models-worker'));
  let failed = false;
  worker.on('message', (message: ReadModelsThreadMessage) => {
    if (message.type === 'failed' && !failed) {
      failed = true;
      onFailure(message.error);
    }
  });
  worker.on('error', (error) => {
    if (!failed) onFailure(error.message);
    failed = true;
  });
  const exited = once(worker, 'exit').then(() => undefined);
  return {
    stop: async () => {
      worker.postMessage('stop');
      await exited;
    },
  };
};

/** Beyond this many events left to apply at the end, the catch-up shows a progress bar. */
const barFrom = 10_000;
/** A catch-up run by another instance (the server) that has not moved for this long is left to it. */
const stalledMs = 60_000;

/**
 * Resolves once the read models have applied the log as it is now: this process applies it when no
 * server runs them, else the server does and this waits for it. A server whose read models stop
 * moving is left to catch up alone after `stalledMs`: what was written is written, and the command
 * says so rather than wait forever.
 */
export const readModelsCaughtUp = async (runtime: Runtime, say: (line: string) => void = sayOnStderr): Promise<void> => {
  let done = false;
  const started = runtime.projections.start().finally(() => (done = true));
  const first = runtime.projections.progress();
  const bar =
    first.head - (first.position ?? -1) > barFrom
      ? progressBar('read models', first.head + 1, runtime.config.eventStoreUrl ? 'positions' : 'events')
      : undefined;
  let last = first.position;
  let movedAt = Date.now();
  try {
    while (!done) {
      await Promise.race([started, sleep(200)]);
      const { position } = runtime.projections.progress();
      bar?.update(Math.min(first.head + 1, (position ?? -1) + 1));
      if (position !== last) {
        last = position;
        movedAt = Date.now();
      } else if (!done && Date.now() - movedAt > stalledMs) {
        say(
          `the read models have not moved for ${stalledMs / 1000} s (position ${position ?? -1} of ${first.head}): they will include these changes once the instance running them catches up (see /health)`,
        );
        return;
      }
    }
    await started;
  } finally {
    bar?.stop();
  }
};
