import cron, { type Logger as CronLogger, type ScheduledTask } from 'node-cron';
import type { JobRuntime } from './job-runtime.ts';

/** node-cron's own messages (missed or overlapping ticks) go to the service's log, tagged with the job. */
const cronLogger = (runtime: JobRuntime, job: string): CronLogger => ({
  info: (message) => runtime.log.debug({ job }, message),
  warn: (message) => runtime.log.warn({ job }, message),
  error: (message, err) => runtime.log.error({ job, err: err ?? message }, String(message)),
  debug: (message) => runtime.log.debug({ job }, String(message)),
});

/**
 * The cron pattern of a run every `everySeconds` seconds, 1 to 59 (else a RangeError, before the job
 * acquires anything): `*\/n` on the seconds field, so the period is exact when n divides 60; otherwise
 * the count restarts at each minute.
 */
export const everySecondsPattern = (everySeconds: number): string => {
  if (!Number.isInteger(everySeconds) || everySeconds < 1 || everySeconds > 59) {
    throw new RangeError(`everySeconds must be an integer from 1 to 59, got ${everySeconds}`);
  }
  return `*/${everySeconds} * * * * *`;
};

/** Runs `tick` on `pattern`; a tick while the previous one is still going is skipped rather than stacked (noOverlap). */
export const scheduleJob = (runtime: JobRuntime, job: string, pattern: string, tick: () => Promise<void>): ScheduledTask =>
  cron.schedule(pattern, tick, { name: job, noOverlap: true, logger: cronLogger(runtime, job) });
