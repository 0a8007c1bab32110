import { answerRecords } from '../idempotency/answer-records.ts';
import type { JobRuntime } from './job-runtime.ts';
import { scheduleJob } from './cron-schedule.ts';

/**
 * Deletes the Idempotency-Key answers older than 24 hours, every hour (at minute 7). A retry never
 * needs it (an expired answer is not given again, purged or not): it keeps the collection at one
 * day of keyed requests. The deletion runs on the expiry index, never over the whole collection.
 */

export type IdempotencyPurgeJob = { stop(): Promise<void> };

export const startIdempotencyPurgeJob = (runtime: JobRuntime, pattern = '0 7 * * * *'): IdempotencyPurgeJob => {
  const records = answerRecords(runtime.readStore);
  let current: Promise<void> | null = null;
  const tick = async (): Promise<void> => {
    if (!runtime.isOpen()) return;
    current = records
      .purgeExpired(runtime.clock.now())
      .then((deleted) => {
        if (deleted > 0) runtime.log.debug({ deleted }, 'expired idempotency answers purged');
      })
      .catch((error: unknown) => runtime.log.error({ err: error }, 'idempotency answer purge failed'));
    await current;
    current = null;
  };
  const task = scheduleJob(runtime, 'idempotency-purge', pattern, tick);
  let stopped: Promise<void> | null = null;
  return {
    stop: () =>
      (stopped ??= (async () => {
        await task.destroy();
        await current;
      })()),
  };
};
