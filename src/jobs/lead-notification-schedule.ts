import { createMailTransport, type MailTransport } from '../mail/mail-transport.ts';
import type { Runtime } from '../runtime.ts';
import { everySecondsPattern, scheduleJob } from './cron-schedule.ts';
import { runLeadNotificationsOnce } from './lead-notifications.ts';

/** The lead notification job on a node-cron schedule, started and stopped with the HTTP service. */

export type LeadNotificationJob = {
  /** No new run starts; resolves once the run in flight, if any, has finished and the transport is closed. */
  stop(): Promise<void>;
};

export type LeadNotificationJobOptions = {
  /** Seconds between runs, 1 to 59 (default 30): see everySecondsPattern. */
  everySeconds?: number;
  /** The transport to use (the caller keeps and closes it); default: the configured one, owned by the job. */
  transport?: MailTransport;
};

const defaultPeriodSeconds = 30;

export const startLeadNotificationJob = (runtime: Runtime, options: LeadNotificationJobOptions = {}): LeadNotificationJob => {
  const pattern = everySecondsPattern(options.everySeconds ?? defaultPeriodSeconds);
  const transport = options.transport ?? createMailTransport(runtime.config);
  let current: Promise<void> | null = null;

  const tick = async (): Promise<void> => {
    if (!runtime.isOpen()) return;
    const run = runLeadNotificationsOnce(runtime, transport)
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

  // A tick while a run is still going (a slow SMTP server) is skipped rather than stacked.
  const task = scheduleJob(runtime, 'lead-notifications', pattern, tick);

  let stopped: Promise<void> | null = null;
  return {
    stop: () => {
      stopped ??= (async () => {
        await task.destroy();
        await current;
        if (options.transport === undefined) transport.close();
      })();
      return stopped;
    },
  };
};
