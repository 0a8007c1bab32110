import type { Logger as CronLogger } from 'node-cron';
import type { Runtime } from '../runtime.ts';

/** node-cron's own messages (missed or overlapping ticks) go to the service's log, tagged with the job. */
export const cronLogger = (runtime: Runtime, job: string): CronLogger => ({
  info: (message) => runtime.log.debug({ job }, message),
  warn: (message) => runtime.log.warn({ job }, message),
  error: (message, err) => runtime.log.error({ job, err: err ?? message }, String(message)),
  debug: (message) => runtime.log.debug({ job }, String(message)),
});
