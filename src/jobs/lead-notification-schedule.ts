import { createMailTransport, type MailTransport } from '../mail/mail-transport.ts';
import type { JobRuntime } from './job-runtime.ts';
import { everySecondsPattern, scheduleJob } from './cron-schedule.ts';
import { holdJobLease } from '../leases/job-lease.ts';
import { runLeadNotificationsOnce } from './lead-notifications.ts';

/**
 * The lead notification job on a node-cron schedule, started and stopped with the HTTP service. Of
 * the instances sharing the stores, only the one holding the job's lease (`job:lead-notifications`,
 * job-lease.ts) runs it: two instances never mail the same due lead. It runs at once when it takes the
 * lease, so that the leads a dead holder left due are mailed as soon as its lease has expired.
 */

export type LeadNotificationJob = {
  /** No new run starts; resolves once the run in flight, if any, has finished and the transport is closed. */
  stop(): Promise<void>;
};

export type LeadNotificationJobOptions = {
  /** Seconds between runs, 1 to 59 (default LEAD_NOTIFY_EVERY_SECONDS, 30): see everySecondsPattern. */
  everySeconds?: number;
  /** The transport to use (the caller keeps and closes it); default: the configured one, owned by the job. */
  transport?: MailTransport;
};

export const leadNotificationJobName = 'lead-notifications';

export const startLeadNotificationJob = (runtime: JobRuntime, options: LeadNotificationJobOptions = {}): LeadNotificationJob => {
  const pattern = everySecondsPattern(options.everySeconds ?? runtime.config.leadNotifyEverySeconds);
  const transport = options.transport ?? createMailTransport(runtime.config);
  let current: Promise<void> | null = null;

  const tick = async (): Promise<void> => {
    if (!runtime.isOpen() || !lease.held) return;
    const run = runLeadNotificationsOnce(runtime, transport, () => lease.held && runtime.isOpen())
      .then((outcome) => {
        if (outcome.status === 'completed' && outcome.deferred.length > 0) {
          runtime.log.warn({ deferred: outcome.deferred.length }, 'mail transport unavailable: lead notifications deferred');
        }
      })
      // A failed run (the store closing, say) is logged; the next tick tries again from the events.
      .catch((error: unknown) => runtime.log.error({ err: error }, 'lead notification run failed'));
    current = run;
    await run;
    if (current === run) current = null;
  };

  const lease = holdJobLease(runtime, leadNotificationJobName, {
    // Not awaited: a run may outlast a renewal, which waits for this callback.
    onAcquired: () => void (current ?? tick()),
    // A run in flight finishes the lead it is sending, then finds the lease gone before the next one.
    onLost: () => undefined,
  });

  // A tick while a run is still going (a slow SMTP server) is skipped rather than stacked.
  const task = scheduleJob(runtime, leadNotificationJobName, pattern, tick);

  let stopped: Promise<void> | null = null;
  return {
    stop: () => {
      stopped ??= (async () => {
        await task.destroy();
        await current;
        await lease.stop();
        if (options.transport === undefined) transport.close();
      })();
      return stopped;
    },
  };
};
