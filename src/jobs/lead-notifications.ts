import { cronContext } from '../events/command-context.ts';
import { fold } from '../events/decider.ts';
import { readDomainStream } from '../events/domain-store.ts';
import { leadStreamName, type LeadEvent } from '../events/leads/events.ts';
import { isNotificationDue, leadDecider } from '../events/leads/lead-decider.ts';
import { recordNotificationFailed, recordNotificationSent } from '../events/leads/lead-handlers.ts';
import { leadMail, type LeadMailDetails } from '../mail/lead-mail.ts';
import { createMailTransport, type MailTransport } from '../mail/mail-transport.ts';
import { pendingLeadNotifications } from '../projections/leads/queries.ts';
import type { JobRuntime } from './job-runtime.ts';

/**
 * The outbox of the contact-lead e-mails: each run mails the leads whose notification is due and
 * records the outcome on the lead's stream (LeadNotificationSent / LeadNotificationFailed, the latter
 * with the back-off of the next attempt).
 *
 * Delivery is at least once. The events, not the read model, decide whether a lead is still owed its
 * mail: the read model only proposes candidates, and each is checked against its stream just before
 * sending, so a read model being rebuilt or lagging never causes a second mail. What remains is a crash
 * (or a store failure) between the SMTP server's acceptance and the recording of LeadNotificationSent:
 * the next run sends again, with the same Message-ID (one per lead), so the duplicate is recognisable.
 * Two runs at once could both send a due lead: on one runtime they never overlap, and among the
 * instances sharing the stores only the holder of the job's lease runs it (lead-notification-schedule.ts);
 * a run that learns it lost the lease (`mayGoOn`) sends nothing more.
 */

export type LeadNotificationRun =
  /** Another run on the same runtime was still going: this one did nothing. */
  | { status: 'busy' }
  /** `deferred`: due leads left for the next run because the transport was unreachable. */
  | { status: 'completed'; sent: string[]; failed: string[]; deferred: string[] };

type DueLead = { details: LeadMailDetails; attempt: number };

/** The lead as its events say, if its notification is due now; null when sent, abandoned or not yet due. */
const dueLead = async (runtime: JobRuntime, leadId: string, now: Date): Promise<DueLead | null> => {
  const { events } = await readDomainStream<LeadEvent>(runtime.eventStore, leadStreamName(leadId));
  const state = fold(leadDecider, events);
  if (state.status !== 'captured' || !isNotificationDue(state.notification, now)) return null;
  const captured = events.find((event) => event.type === 'ContactLeadCaptured');
  if (captured?.type !== 'ContactLeadCaptured') return null;
  const { name, email, phone, projectName, capturedAt } = captured.data;
  return { details: { leadId, name, email, phone, projectName, capturedAt }, attempt: state.notification.attempts + 1 };
};

/**
 * An SMTP server's permanent answer about this message (5xx): the next lead may still go through.
 * Anything else (no connection, time-out, refused login, a disk error writing files) concerns the
 * transport: the run stops there rather than knocking on a dead server once per due lead.
 */
const isMessageRejection = (error: unknown): boolean => {
  const responseCode = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof responseCode === 'number' && responseCode >= 500;
};

const describeError = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
};

const notifyDueLeads = async (
  runtime: JobRuntime,
  transport: MailTransport,
  mayGoOn: () => boolean,
): Promise<Extract<LeadNotificationRun, { status: 'completed' }>> => {
  const now = runtime.clock.now();
  const settings = { from: runtime.config.mailFrom, to: runtime.config.leadNotifyTo, timezone: runtime.config.planningTimezone };
  const run = { status: 'completed' as const, sent: [] as string[], failed: [] as string[], deferred: [] as string[] };
  let transportDown = false;
  for (const candidate of await pendingLeadNotifications(runtime.readStore, now.toISOString())) {
    const leadId = candidate._id;
    if (!mayGoOn()) break;
    const lead = await dueLead(runtime, leadId, now);
    if (lead === null) continue;
    if (transportDown) {
      run.deferred.push(leadId);
      continue;
    }
    const context = cronContext();
    let messageId: string;
    try {
      ({ messageId } = await transport.send({ key: leadId, message: leadMail(lead.details, settings) }));
    } catch (error) {
      await recordNotificationFailed(runtime.write, { leadId, attempt: lead.attempt, error: describeError(error) }, context);
      runtime.log.warn({ leadId, attempt: lead.attempt, err: error }, 'lead notification not sent; retried later');
      run.failed.push(leadId);
      transportDown = !isMessageRejection(error);
      continue;
    }
    // Outside the try: once the message is out, a failure to record it must not be recorded as a failed send.
    await recordNotificationSent(runtime.write, { leadId, attempt: lead.attempt, transport: transport.kind, messageId }, context);
    runtime.log.info({ leadId, attempt: lead.attempt, transport: transport.kind }, 'lead notification sent');
    run.sent.push(leadId);
  }
  return run;
};

const running = new WeakSet<JobRuntime>();

/**
 * One run of the job. `transport` defaults to the configured one (SMTP, or `.eml` files without
 * SMTP_URL), opened and closed for this run. Runs on one runtime never overlap: a run started while
 * another is going answers `busy` at once. `mayGoOn` is asked before each lead: false ends the run there.
 */
export const runLeadNotificationsOnce = async (
  runtime: JobRuntime,
  transport?: MailTransport,
  mayGoOn: () => boolean = () => true,
): Promise<LeadNotificationRun> => {
  if (running.has(runtime)) return { status: 'busy' };
  running.add(runtime);
  const used = transport ?? createMailTransport(runtime.config);
  try {
    const run = await notifyDueLeads(runtime, used, mayGoOn);
    // What the run recorded is in the read models when it ends: the next run (here or in another
    // instance) is not offered the leads this one settled.
    if (run.sent.length + run.failed.length > 0) await runtime.projections.waitFor(await runtime.eventStore.headPosition());
    return run;
  } finally {
    running.delete(runtime);
    if (transport === undefined) used.close();
  }
};
