import { savStreamName, type SavEvent } from '../events/after-sales/events.ts';
import { savDecider } from '../events/after-sales/sav-decider.ts';
import { fold } from '../events/decider.ts';
import { readDomainStream } from '../events/domain-store.ts';
import { erased } from '../events/schema/personal-data.ts';
import { customerMailStreamName } from '../events/customer-mails/events.ts';
import { addDays, localDateIn } from '../events/planning/calendar-date.ts';
import { planningDayStreamName } from '../events/planning/events.ts';
import { planningDayDecider, type PlanningDayEvent } from '../events/planning/planning-day-decider.ts';
import { createMailTransport, type MailTransport } from '../mail/mail-transport.ts';
import { savCustomer, type MailToSend } from './customer-mail-sources.ts';
import { deliverCustomerMail } from './customer-mails.ts';
import type { JobRuntime } from './job-runtime.ts';

/**
 * The reminder the day before a SAV appointment: each run mails the customers whose SAV holds a place
 * tomorrow (in the planning's time zone), the day's bookings read from its planning-day stream and
 * each checked against its SAV's events: still open (not resolved, closed or cancelled) and its
 * appointment still on that day (a SAV moved away is not reminded). At most one reminder per
 * appointment: the mail's stream is keyed by the SavAppointmentScheduled event that booked it.
 */

export type ReminderRun = { status: 'busy' } | { status: 'completed'; sent: string[]; failed: string[]; skipped: string[] };

const running = new WeakSet<JobRuntime>();

export const runSavAppointmentRemindersOnce = async (runtime: JobRuntime, transport?: MailTransport): Promise<ReminderRun> => {
  if (running.has(runtime)) return { status: 'busy' };
  running.add(runtime);
  const used = transport ?? createMailTransport(runtime.config);
  const run = { status: 'completed' as const, sent: [] as string[], failed: [] as string[], skipped: [] as string[] };
  try {
    if (!runtime.config.customerMailKinds.includes('sav_appointment_reminder')) return run;
    const tomorrow = addDays(localDateIn(runtime.clock.now(), runtime.config.planningTimezone), 1);
    const day = fold(planningDayDecider, (await readDomainStream<PlanningDayEvent>(runtime.eventStore, planningDayStreamName('sav', tomorrow))).events);
    const savIds = [...new Set(day.held.flatMap(({ booking }) => (booking.kind === 'sav' ? [booking.savId] : [])))];
    let transportDown = false;
    for (const savId of savIds) {
      const { events } = await readDomainStream<SavEvent>(runtime.eventStore, savStreamName(savId));
      const sav = fold(savDecider, events);
      if (!sav.exists || sav.status !== 'in_progress' || sav.appointment?.date !== tomorrow) continue;
      const booked = events.findLast((event) => event.type === 'SavAppointmentScheduled');
      if (booked?.type !== 'SavAppointmentScheduled') continue;
      const { date, time } = sav.appointment;
      const resolve = async (): Promise<MailToSend> => {
        const { customer } = await savCustomer(runtime.eventStore, savId);
        if (customer === null) return { status: 'skip', reason: 'no_address' };
        if (customer.email === erased || customer.firstname === erased) return { status: 'skip', reason: 'customer_erased' };
        return { status: 'send', customer, content: { kind: 'sav_appointment_reminder', savId, date, time } };
      };
      const outcome = await deliverCustomerMail(runtime, used, { kind: 'sav_appointment_reminder', sourceEventId: booked.id, resolve }, transportDown);
      const name = customerMailStreamName('sav_appointment_reminder', booked.id);
      if (outcome === 'sent') run.sent.push(name);
      if (outcome === 'skipped') run.skipped.push(name);
      if (outcome === 'failed' || outcome === 'unreachable') run.failed.push(name);
      if (outcome === 'unreachable') transportDown = true;
    }
    return run;
  } finally {
    running.delete(runtime);
    if (transport === undefined) used.close();
  }
};
