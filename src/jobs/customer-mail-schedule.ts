import { createMailTransport, type MailTransport } from '../mail/mail-transport.ts';
import type { JobRuntime } from './job-runtime.ts';
import { everySecondsPattern } from './cron-schedule.ts';
import { startLeasedJob, type LeasedJob } from './leased-job.ts';
import { customerMailJobName, runCustomerMailsOnce } from './customer-mails.ts';
import { runSavAppointmentRemindersOnce } from './sav-appointment-reminders.ts';

/**
 * The customer mails' outbox every 30 s, and the reminders of tomorrow's SAV appointments every hour on
 * the hour, each in the instance holding its lease (leased-job.ts): two instances never mail the same step.
 */

export type CustomerMailJobOptions = { everySeconds?: number; transport?: MailTransport };

export const startCustomerMailJob = (runtime: JobRuntime, options: CustomerMailJobOptions = {}): LeasedJob => {
  const transport = options.transport ?? createMailTransport(runtime.config);
  return startLeasedJob(runtime, {
    name: customerMailJobName,
    pattern: everySecondsPattern(options.everySeconds ?? 30),
    run: async (stillHeld) => {
      const outcome = await runCustomerMailsOnce(runtime, transport, stillHeld);
      if (outcome.status === 'completed' && outcome.deferred.length > 0) {
        runtime.log.warn({ deferred: outcome.deferred.length }, 'mail transport unavailable: customer mails deferred');
      }
    },
    failure: 'customer mail run failed',
    ...(options.transport === undefined && { close: () => transport.close() }),
  });
};

export const savAppointmentReminderJobName = 'sav-appointment-reminders';

export const startSavAppointmentReminderJob = (runtime: JobRuntime): LeasedJob => {
  const transport = createMailTransport(runtime.config);
  return startLeasedJob(runtime, {
    name: savAppointmentReminderJobName,
    pattern: '0 0 * * * *',
    run: async () => {
      await runSavAppointmentRemindersOnce(runtime, transport);
    },
    failure: 'appointment reminder run failed',
    close: () => transport.close(),
  });
};
