import { createMailTransport, type MailTransport } from '../mail/mail-transport.ts';
import type { JobRuntime } from './job-runtime.ts';
import { everySecondsPattern } from './cron-schedule.ts';
import { startLeasedJob, type LeasedJob } from './leased-job.ts';
import { runLeadNotificationsOnce } from './lead-notifications.ts';

/**
 * The lead notification job (leased-job.ts): every LEAD_NOTIFY_EVERY_SECONDS, in the instance holding
 * `job:lead-notifications`, so that two instances never mail the same due lead.
 */

export type LeadNotificationJob = LeasedJob;

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
  return startLeasedJob(runtime, {
    name: leadNotificationJobName,
    pattern,
    run: async (stillHeld) => {
      const outcome = await runLeadNotificationsOnce(runtime, transport, stillHeld);
      if (outcome.status === 'completed' && outcome.deferred.length > 0) {
        runtime.log.warn({ deferred: outcome.deferred.length }, 'mail transport unavailable: lead notifications deferred');
      }
    },
    failure: 'lead notification run failed',
    ...(options.transport === undefined && { close: () => transport.close() }),
  });
};
