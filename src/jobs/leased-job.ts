import { holdJobLease } from '../leases/job-lease.ts';
import type { JobRuntime } from './job-runtime.ts';
import { scheduleJob } from './cron-schedule.ts';

/**
 * A job run on a node-cron schedule, started and stopped with the HTTP service, by the one instance
 * holding its lease (`job:<name>`, job-lease.ts): two instances never do the same work. It also runs
 * at once when it takes the lease, so that what a dead holder left due is done as soon as its lease
 * has expired. A tick while a run is still going (a slow SMTP server) is skipped rather than stacked.
 */

export type LeasedJob = {
  /** No new run starts; resolves once the run in flight, if any, has finished and `close` has run. */
  stop(): Promise<void>;
};

export type LeasedJobSpec = {
  name: string;
  /** node-cron pattern (six fields, seconds first). */
  pattern: string;
  /** One run; `stillHeld` turns false when the lease is lost or the runtime closes (the run stops between items). */
  run: (stillHeld: () => boolean) => Promise<void>;
  /** Said in the log when a run fails; the next tick tries again. */
  failure: string;
  /** Once stopped (a transport the job owns). */
  close?: () => void;
};

export const startLeasedJob = (runtime: JobRuntime, spec: LeasedJobSpec): LeasedJob => {
  let current: Promise<void> | null = null;

  const tick = async (): Promise<void> => {
    // A tick while a run is going (the one started on taking the lease, which the schedule's noOverlap does not see) is skipped.
    if (!runtime.isOpen() || !lease.held || current) return;
    // A failed run (the store closing, say) is logged; the next tick tries again from the events.
    const run = spec.run(() => lease.held && runtime.isOpen()).catch((error: unknown) => runtime.log.error({ err: error }, spec.failure));
    current = run;
    await run;
    if (current === run) current = null;
  };

  const lease = holdJobLease(runtime, spec.name, {
    // Not awaited: a run may outlast a renewal, which waits for this callback.
    onAcquired: () => void (current ?? tick()),
    // A run in flight finishes the item it is on, then finds the lease gone before the next one.
    onLost: () => undefined,
  });
  const task = scheduleJob(runtime, spec.name, spec.pattern, tick);

  let stopped: Promise<void> | null = null;
  return {
    stop: () => {
      stopped ??= (async () => {
        await task.destroy();
        await current;
        await lease.stop();
        spec.close?.();
      })();
      return stopped;
    },
  };
};
