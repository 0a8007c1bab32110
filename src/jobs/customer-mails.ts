import { cronContext } from '../events/command-context.ts';
import { handleCommand } from '../events/command-handler.ts';
import { fold } from '../events/decider.ts';
import { readDomainStream } from '../events/domain-store.ts';
import { customerMailDecider, isMailDue, isSettled, type CustomerMailCommand } from '../events/customer-mails/customer-mail-decider.ts';
import { customerMailStreamName, type CustomerMailEvent, type CustomerMailKind } from '../events/customer-mails/events.ts';
import { decodeEvent, type StoredEvent } from '../events/registry.ts';
import { customerMail, type CustomerMailContent } from '../mail/customer-mail.ts';
import { createMailTransport, type MailTransport } from '../mail/mail-transport.ts';
import type { JobRuntime } from './job-runtime.ts';
import { customerMailSourceTypes, mailFor, mailKindOf, type MailToSend, type SourceEvent } from './customer-mail-sources.ts';

/**
 * The outbox of the customers' mails, derived from the log: each run reads the events that owe a
 * customer a mail (a line shipped, a SAV opened, an appointment booked or moved, a SAV resolved or
 * closed, a refund paid) from its checkpoint, and for each kind enabled (CUSTOMER_MAIL_KINDS) sends it
 * and records the outcome in the mail's own stream, `customermail-<kind>-<sourceEventId>`:
 * CustomerMailSent, CustomerMailFailed (with the back-off of the next attempt) or CustomerMailSkipped
 * (an erased customer, no address). No address and no body is recorded: the mail is rebuilt from the
 * log each time it is attempted.
 *
 * Never twice: the mail's stream, not the checkpoint, decides whether a mail is still owed, checked
 * just before sending; the checkpoint only spares reading the log again. A rebuild of the read models,
 * a lost checkpoint or a replay from the start therefore sends nothing again. What remains, as for the
 * lead mails, is a crash between the SMTP server's acceptance and the recording: the next run sends
 * again with the same Message-ID. Only the holder of the job's lease runs it (customer-mail-schedule.ts).
 *
 * The checkpoint stays before the first mail not yet settled (waiting for its retry), so that the
 * retry is found again; the mails after it are still sent in the meantime. The first run of an
 * instance with no checkpoint starts from the log's head: the steps of orders before it are not mailed.
 */

export type CustomerMailRun =
  | { status: 'busy' }
  /** Mail stream names; `deferred`: left for the next run because the transport was unreachable. */
  | { status: 'completed'; sent: string[]; failed: string[]; skipped: string[]; deferred: string[] };

export const customerMailJobName = 'customer-mails';
const checkpointCollection = 'job_checkpoints';
const pageSize = 200;

type CheckpointDocument = { _id: string; position: number };

export const readCustomerMailCheckpoint = async (runtime: Pick<JobRuntime, 'readStore'>): Promise<number | null> =>
  (await runtime.readStore.collection<CheckpointDocument>(checkpointCollection).findOne({ _id: customerMailJobName }))?.position ?? null;

export const writeCustomerMailCheckpoint = async (runtime: Pick<JobRuntime, 'readStore'>, position: number): Promise<void> => {
  await runtime.readStore
    .collection<CheckpointDocument>(checkpointCollection)
    .updateOne({ _id: customerMailJobName }, { $set: { position } }, { upsert: true });
};

const isMessageRejection = (error: unknown): boolean => {
  const responseCode = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof responseCode === 'number' && responseCode >= 500;
};

const describeError = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return (typeof code === 'string' ? `${code}: ${error.message}` : error.message).slice(0, 2000);
};

type OutcomeCommand = CustomerMailCommand extends infer C ? (C extends CustomerMailCommand ? Omit<C, 'kind' | 'sourceEventId' | 'at'> : never) : never;

const record = async (runtime: JobRuntime, kind: CustomerMailKind, sourceEventId: string, command: OutcomeCommand) => {
  const at = runtime.clock.now().toISOString();
  const full = { ...command, kind, sourceEventId, at } as CustomerMailCommand;
  await handleCommand(runtime.write, customerMailStreamName(kind, sourceEventId), customerMailDecider, full, cronContext());
};

/** One mail owed: its state from its stream, then sent, skipped or failed; 'waiting' when its retry is not due. */
/** `unreachable`: the transport failed (not this message): the run sends nothing more. */
export type MailOutcome = 'sent' | 'failed' | 'unreachable' | 'skipped' | 'settled' | 'waiting' | 'deferred';

/** Sends one mail the log owes, unless its stream says it is settled or not due; records the outcome. */
export const deliverCustomerMail = async (
  runtime: JobRuntime,
  transport: MailTransport,
  mail: { kind: CustomerMailKind; sourceEventId: string; resolve: () => Promise<MailToSend> },
  transportDown: boolean,
): Promise<MailOutcome> => {
  const { kind, sourceEventId } = mail;
  const state = fold(customerMailDecider, (await readDomainStream<CustomerMailEvent>(runtime.eventStore, customerMailStreamName(kind, sourceEventId))).events);
  if (isSettled(state)) return 'settled';
  if (!isMailDue(state, runtime.clock.now())) return 'waiting';
  const toSend = await mail.resolve();
  if (toSend.status === 'skip') {
    await record(runtime, kind, sourceEventId, { type: 'RecordCustomerMailSkipped', reason: toSend.reason });
    runtime.log.info({ kind, sourceEventId, reason: toSend.reason }, 'customer mail skipped');
    return 'skipped';
  }
  if (transportDown) return 'deferred';
  const settings = { from: runtime.config.mailFrom, seller: runtime.config.seller, timezone: runtime.config.planningTimezone };
  const message = customerMail({ customer: toSend.customer, content: toSend.content as CustomerMailContent, sourceEventId }, settings);
  let messageId: string;
  try {
    ({ messageId } = await transport.send({ key: `${kind.replace(/_/g, '-')}-${sourceEventId}`, message }));
  } catch (error) {
    await record(runtime, kind, sourceEventId, { type: 'RecordCustomerMailFailed', error: describeError(error) });
    runtime.log.warn({ kind, sourceEventId, err: error }, 'customer mail not sent; retried later');
    return isMessageRejection(error) ? 'failed' : 'unreachable';
  }
  // Outside the try: once the message is out, a failure to record it must not be recorded as a failed send.
  await record(runtime, kind, sourceEventId, { type: 'RecordCustomerMailSent', transport: transport.kind, messageId });
  runtime.log.info({ kind, sourceEventId, transport: transport.kind }, 'customer mail sent');
  return 'sent';
};

const mailFromLog = async (
  runtime: JobRuntime,
  transport: MailTransport,
  mayGoOn: () => boolean,
): Promise<Extract<CustomerMailRun, { status: 'completed' }>> => {
  const run = { status: 'completed' as const, sent: [] as string[], failed: [] as string[], skipped: [] as string[], deferred: [] as string[] };
  const enabled = new Set(runtime.config.customerMailKinds);
  const head = await runtime.eventStore.headPosition();
  const from = await readCustomerMailCheckpoint(runtime);
  if (from === null) {
    await writeCustomerMailCheckpoint(runtime, head);
    return run;
  }
  let position = from;
  /** The checkpoint to keep: before the first mail not settled by this run. */
  let keepBefore: number | null = null;
  let transportDown = false;
  while (mayGoOn()) {
    const page = await runtime.eventStore.readAll({ fromPosition: position, maxCount: pageSize, filter: { eventTypes: customerMailSourceTypes } });
    for (const recorded of page) {
      if (!mayGoOn()) break;
      const event = decodeEvent(recorded) as StoredEvent<SourceEvent>;
      const kind = mailKindOf(event);
      if (enabled.has(kind)) {
        const outcome = await deliverCustomerMail(
          runtime,
          transport,
          { kind, sourceEventId: event.id, resolve: () => mailFor(runtime.eventStore, event) },
          transportDown,
        );
        const name = customerMailStreamName(kind, event.id);
        if (outcome === 'sent') run.sent.push(name);
        if (outcome === 'skipped') run.skipped.push(name);
        if (outcome === 'failed' || outcome === 'unreachable') run.failed.push(name);
        if (outcome === 'deferred') run.deferred.push(name);
        if (outcome === 'unreachable') transportDown = true;
        const unsettled = outcome === 'failed' || outcome === 'unreachable' || outcome === 'deferred' || outcome === 'waiting';
        if (unsettled && keepBefore === null) keepBefore = recorded.position - 1;
      }
      position = recorded.position;
    }
    if (page.length < pageSize) break;
  }
  await writeCustomerMailCheckpoint(runtime, keepBefore ?? position);
  return run;
};

const running = new WeakSet<JobRuntime>();

/**
 * One run of the job. `transport` defaults to the configured one, opened and closed for this run.
 * Runs on one runtime never overlap (`busy`); `mayGoOn` is asked before each event: false ends the run.
 */
export const runCustomerMailsOnce = async (runtime: JobRuntime, transport?: MailTransport, mayGoOn: () => boolean = () => true): Promise<CustomerMailRun> => {
  if (running.has(runtime)) return { status: 'busy' };
  running.add(runtime);
  const used = transport ?? createMailTransport(runtime.config);
  try {
    return await mailFromLog(runtime, used, mayGoOn);
  } finally {
    running.delete(runtime);
    if (transport === undefined) used.close();
  }
};
