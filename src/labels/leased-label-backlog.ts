import type { LeaseHolder } from '../projections/projection-lease.ts';
import { holdJobLease, type JobLeaseDeps } from '../leases/job-lease.ts';
import type { LabelBacklog } from './label-backlog.ts';

export const labelBacklogJobName = 'label-backlog';

/**
 * The label backlog (label-backlog.ts) in the one instance holding its lease (`job:label-backlog`,
 * jobs/job-lease.ts): each imported order's labels are rendered once, whichever instance imported it.
 * Each time this instance takes the lease, a backlog starts afresh from the checkpoint in DATA_DIR,
 * which the instances share with the label files; so when the holder dies, the next holder renders
 * what it left owed, as soon as its lease has expired (a label already on disk is only checked).
 * On the other instances it does nothing: it reports no labels pending and no position.
 */
export const leasedLabelBacklog = (runtime: JobLeaseDeps, create: () => LabelBacklog): LabelBacklog => {
  let lease: LeaseHolder | undefined;
  let current: LabelBacklog | undefined;
  let starting: Promise<void> = Promise.resolve();
  let stopped = false;

  return {
    start: async () => {
      if (lease || stopped) return;
      lease = holdJobLease(runtime, labelBacklogJobName, {
        onAcquired: () => {
          const backlog = create();
          current = backlog;
          // Not awaited here (renewals wait for this callback): start() waits for the first one.
          starting = backlog.start().catch((error: unknown) => runtime.log.error({ err: error }, 'the label backlog could not start'));
        },
        onLost: async () => {
          const backlog = current;
          current = undefined;
          await starting;
          // The labels being rendered are finished and the checkpoint saved: the next holder goes on from there.
          await backlog?.stop();
        },
      });
      await lease.ready;
      await starting;
    },
    idle: async () => {
      await starting;
      await current?.idle();
    },
    stop: async () => {
      stopped = true;
      await lease?.stop();
    },
    pending: () => current?.pending() ?? 0,
    doneThrough: () => current?.doneThrough() ?? null,
  };
};
