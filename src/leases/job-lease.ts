import { systemClock } from '../events/command-context.ts';
import { holdLease, type LeaseHolder } from '../projections/projection-lease.ts';
import type { Config } from '../config/config.ts';
import type { Logger } from '../logger.ts';
import type { ReadStore } from '../projections/read-store/read-store.ts';

/**
 * A background job that must run in one instance at a time among those sharing the read store (the
 * label backlog, the lead mails): it runs in the one holding its lease, `job:<name>` in the
 * projections' lease collection, with the same time to live (PROJECTION_LEASE_TTL_MS). When its
 * holder dies, another instance takes the lease as soon as it expires and runs the job from where the
 * log and the job's own records say it stood. On the embedded store the server is the only process
 * running jobs: it takes the lease at once (and at once again after a crash: its dead holder is known).
 * Expiry is judged on the system clock, never on a clock a test froze.
 */
export const jobLeaseName = (job: string): string => `job:${job}`;

export type JobLeaseCallbacks = {
  /** This instance now runs the job. Return promptly: renewals wait for it. */
  onAcquired: () => void | Promise<void>;
  /** It no longer does (lost, or released at stop): stop the job's work. */
  onLost: () => void | Promise<void>;
};

/** What a leased job needs to hold its lease: the instance's settings, the store of the leases, a log. */
export type JobLeaseDeps = { config: Config; readStore: ReadStore; log: Logger };

export const holdJobLease = (runtime: JobLeaseDeps, job: string, callbacks: JobLeaseCallbacks): LeaseHolder => {
  const { config, log } = runtime;
  const name = jobLeaseName(job);
  return holdLease({
    store: runtime.readStore,
    projection: name,
    owner: config.instanceId,
    clock: systemClock,
    ttlMs: config.projectionLeaseTtlMs,
    replaceDeadHolders: !config.mongodbUrl,
    onAcquired: () => {
      log.info({ job, owner: config.instanceId }, 'job lease taken: the job runs in this instance');
      return callbacks.onAcquired();
    },
    onLost: () => {
      log.info({ job, owner: config.instanceId }, 'job lease given up: the job stops in this instance');
      return callbacks.onLost();
    },
    onError: (error) => log.warn({ job, err: error }, 'job lease could not be taken or renewed'),
  });
};
