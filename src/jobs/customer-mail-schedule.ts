import { createMailTransport, type MailTransport } from '../mail/mail-transport.ts';
import type { JobRuntime } from './job-runtime.ts';
import { everySecondsPattern, scheduleJob } from './cron-schedule.ts';
import { holdJobLease } from '../leases/job-lease.ts';
import { customerMailJobName, runCustomerMailsOnce } from './customer-mails.ts';
import { runSavAppointmentRemindersOnce } from './sav-appointment-reminders.ts';

/**
 * The customer mail outbox on a node-cron schedule (every 30 s), started and stopped with the HTTP
 * service, run only by the instance holding its lease (`job:customer-mails`): two instances never mail
 * the same step. It runs at once when it takes the lease.
 */

export type CustomerMailJob = { stop(): Promise<void> };

export type CustomerMailJobOptions = { everySeconds?: number; transport?: MailTransport };

export const startCustomerMailJob = (runtime: JobRuntime, options: CustomerMailJobOptions = {}): CustomerMailJob => {
  const pattern = everySecondsPattern(options.everySeconds ?? 30);
  const transport = options.transport ?? createMailTransport(runtime.config);
  let current: Promise<void> | null = null;

  const tick = async (): Promise<void> => {
    if (!runtime.isOpen() || !lease.held) return;
    const run = runCustomerMailsOnce(runtime, transport, () => lease.held && runtime.isOpen())
      .then((outcome) => {
        if (outcome.status === 'completed' && outcome.deferred.length > 0) {
          runtime.log.warn({ deferred: outcome.deferred.length }, 'mail transport unavailable: customer mails deferred');
        }
      })
      .catch((error: unknown) => runtime.log.error({ err: error }, 'customer mail run failed'));
    current = run;
    await run;
    if (current === run) current = null;
  };

  const lease = holdJobLease(runtime, customerMailJobName, { onAcquired: () => void (current ?? tick()), onLost: () => undefined });
  const task = scheduleJob(runtime, customerMailJobName, pattern, tick);

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

export const savAppointmentReminderJobName = 'sav-appointment-reminders';

/**
 * The reminders of tomorrow's SAV appointments, every hour on the hour (node-cron), in the instance
 * holding the lease `job:sav-appointment-reminders`; at once when it takes the lease.
 */
export const startSavAppointmentReminderJob = (runtime: JobRuntime): CustomerMailJob => {
  const transport = createMailTransport(runtime.config);
  let current: Promise<void> | null = null;
  const tick = async (): Promise<void> => {
    if (!runtime.isOpen() || !lease.held) return;
    const run = runSavAppointmentRemindersOnce(runtime, transport)
      .then(() => undefined)
      .catch((error: unknown) => runtime.log.error({ err: error }, 'appointment reminder run failed'));
    current = run;
    await run;
    if (current === run) current = null;
  };
  const lease = holdJobLease(runtime, savAppointmentReminderJobName, { onAcquired: () => void (current ?? tick()), onLost: () => undefined });
  const task = scheduleJob(runtime, savAppointmentReminderJobName, '0 0 * * * *', tick);
  let stopped: Promise<void> | null = null;
  return {
    stop: () => {
      stopped ??= (async () => {
        await task.destroy();
        await current;
        await lease.stop();
        transport.close();
      })();
      return stopped;
    },
  };
};
