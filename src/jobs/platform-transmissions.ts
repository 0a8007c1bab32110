import { nextAttemptAfter } from '../events/retry-schedule.ts';
import { cronContext } from '../events/command-context.ts';
import { handleCommand } from '../events/command-handler.ts';
import { fold } from '../events/decider.ts';
import { readDomainStream } from '../events/domain-store.ts';
import { platformTransmissionStreamName, type EInvoicingEvent } from '../events/e-invoicing/events.ts';
import {
  isAwaitingStatus,
  isTransmissionDue,
  platformTransmissionDecider,
  type PlatformTransmissionCommand,
  type TransmissionRef,
} from '../events/e-invoicing/platform-transmission-decider.ts';
import { dayReport } from '../e-invoicing/e-reporting.ts';
import { eReportingXml } from '../e-invoicing/e-reporting-xml.ts';
import type { PlatformAdapter, PlatformDocumentFile } from '../e-invoicing/platform-adapter.ts';
import type { PdfPool } from '../pdf/pdf-pool.ts';
import type { PlatformDocument } from '../projections/e-invoicing/platform-document.ts';
import { duePlatformDocuments, sentPlatformDocuments } from '../projections/e-invoicing/queries.ts';
import { findIssuedDocument } from '../projections/invoicing/queries.ts';
import { addDays } from '../events/planning/calendar-date.ts';
import { administrationDay } from '../events/e-invoicing/administration-day.ts';
import { siren } from '../config/seller-settings.ts';
import type { JobRuntime } from './job-runtime.ts';
import { everySecondsPattern } from './cron-schedule.ts';
import { startLeasedJob, type LeasedJob } from './leased-job.ts';

/**
 * The outbox of the approved platform: the e-invoices of business customers and the e-reporting of
 * each day of consumer sales, sent by the one instance holding its lease (`job:platform-transmissions`),
 * every few seconds. What is owed comes from the log through the platform-documents read model, read
 * once it has caught up with the log's head; each document's own stream then says whether it is still
 * owed and due, just before it is sent, and records the outcome: sent (once), or failed and tried again
 * after a backoff (30 s, 2 min, 10 min, 30 min, 1 h, then every 2 h). A day's e-reporting is sent once
 * the day is over in France (administration-day.ts) by a grace period (10 min), for what was recorded
 * just before midnight to have reached the log, and the read model has seen the whole log; documents
 * before PLATFORM_FROM are not sent at all.
 *
 * Nothing sent twice as two documents: the identifier the platform is given is the document's own
 * (its number, `ER-<date>` for a day), the same at every attempt. A crash after the platform's answer
 * and before the record sends the document again with that identifier, which the platform keeps once;
 * its answer is then recorded, once. The statuses of the documents sent are read from the platform
 * (each every minute, 50 at most per run, those read longest ago first) until their lifecycle is over
 * or for 30 days after their date, each change recorded as an event.
 */

export const platformJobName = 'platform-transmissions';

export type PlatformOutboxOptions = {
  /** The wait after the n-th failure; the last one repeats. */
  retryDelaysMs?: readonly number[];
  /** The most documents sent, and polled, in one run (default 50). */
  batch?: number;
  /** How often a sent document's status is read from the platform until its lifecycle is over (default a minute). */
  statusEveryMs?: number;
  /** For how many days after its date a document's status is read (default 30): then the platform's own portal tells. */
  statusForDays?: number;
  /** How long after midnight a day's e-reporting waits for what was recorded just before it (default 10 min). */
  dayGraceMs?: number;
};

export type PlatformOutboxDeps = {
  adapter: PlatformAdapter;
  pdf: Pick<PdfPool, 'render'>;
  /** The first day whose documents are sent; null: all. */
  from: string | null;
};

/** The most documents whose statuses are followed at once (the oldest of the window first). */
const maxFollowed = 2_000;
const defaultRetryDelaysMs = [30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000];

export type PlatformOutbox = { run: (stillHeld: () => boolean) => Promise<void> };

export const createPlatformOutbox = (runtime: JobRuntime, deps: PlatformOutboxDeps, options: PlatformOutboxOptions = {}): PlatformOutbox => {
  const retryDelaysMs = options.retryDelaysMs ?? defaultRetryDelaysMs;
  const batch = options.batch ?? 50;
  const statusEveryMs = options.statusEveryMs ?? 60_000;
  const statusForDays = options.statusForDays ?? 30;
  const dayGraceMs = options.dayGraceMs ?? 600_000;
  const { seller } = runtime.config;
  // When each document's status was last read by this instance (a new holder of the lease reads them all at once).
  const lastRead = new Map<string, number>();

  const record = (command: PlatformTransmissionCommand) =>
    handleCommand(runtime.write, platformTransmissionStreamName(command.documentId), platformTransmissionDecider, command, cronContext());

  /** The bytes handed to the platform: an e-invoice's Factur-X PDF, a day's e-reporting XML. */
  const fileOf = async (document: PlatformDocument): Promise<PlatformDocumentFile | null> => {
    if (document.kind === 'e-reporting') {
      const report = dayReport({
        date: document.date,
        currency: document.currency,
        seller: { siren: siren(seller), vatNumber: seller.vatNumber, name: seller.name },
        transactions: document.sales,
        amounts: document.amounts,
      });
      return {
        documentId: document._id,
        kind: document.kind,
        fileName: `${document._id}.xml`,
        contentType: 'application/xml',
        body: Buffer.from(eReportingXml(report)),
      };
    }
    const issued = await findIssuedDocument(runtime.readStore, document._id);
    if (!issued) return null;
    const pdf = await deps.pdf.render(
      issued.kind === 'invoice' ? { kind: 'invoice', data: issued.invoice } : { kind: 'credit-note', data: issued.creditNote },
      'background',
    );
    return { documentId: document._id, kind: document.kind, fileName: `${document._id}.pdf`, contentType: 'application/pdf', body: pdf };
  };

  const transmit = async (document: PlatformDocument): Promise<void> => {
    const ref: TransmissionRef = { documentId: document._id, kind: document.kind, date: document.date };
    const { events } = await readDomainStream<EInvoicingEvent>(runtime.eventStore, platformTransmissionStreamName(document._id));
    const state = fold(platformTransmissionDecider, events);
    if (!isTransmissionDue(state, runtime.clock.now())) return;
    const file = await fileOf(document);
    if (!file) return;
    const outcome = await deps.adapter.transmit(file);
    const at = runtime.clock.now();
    if (outcome.ok) {
      await record({ type: 'RecordTransmissionSent', ...ref, status: outcome.status, platformReference: outcome.platformReference, at: at.toISOString() });
      if (outcome.platformStatus) await record({ type: 'RecordPlatformStatus', ...ref, status: outcome.platformStatus, reason: null, at: at.toISOString() });
      return;
    }
    const nextAttemptAt = nextAttemptAfter(retryDelaysMs, state.attempts, at).toISOString();
    await record({ type: 'RecordTransmissionFailed', ...ref, status: outcome.status, error: outcome.error, nextAttemptAt, at: at.toISOString() });
    runtime.log.warn({ documentId: document._id, error: outcome.error, nextAttemptAt }, 'document not handed to the platform; tried again later');
  };

  const pollStatus = async (document: PlatformDocument): Promise<void> => {
    const { events } = await readDomainStream<EInvoicingEvent>(runtime.eventStore, platformTransmissionStreamName(document._id));
    if (!isAwaitingStatus(fold(platformTransmissionDecider, events))) return;
    const answer = await deps.adapter.statusOf(document._id);
    if (!answer.ok) return void runtime.log.info({ documentId: document._id, error: answer.error }, 'platform status not read; read again later');
    if (answer.status === null) return;
    await record({
      type: 'RecordPlatformStatus',
      documentId: document._id,
      kind: document.kind,
      date: document.date,
      status: answer.status,
      reason: answer.reason,
      at: runtime.clock.now().toISOString(),
    });
  };

  return {
    run: async (stillHeld) => {
      // What is owed is read once the read model has seen the whole log: a day is then complete.
      if (!(await runtime.projections.waitFor(await runtime.eventStore.headPosition()))) return;
      const now = runtime.clock.now();
      const today = administrationDay(now.toISOString());
      // A day is over once the grace period after its midnight has passed.
      const lastDayOver = addDays(administrationDay(new Date(now.getTime() - dayGraceMs).toISOString()), -1);
      const owed = (await duePlatformDocuments(runtime.readStore, deps.from, now.toISOString(), batch)).filter(
        (document) => document.kind === 'e-invoice' || document.date <= lastDayOver,
      );
      for (const document of owed) {
        if (!stillHeld()) return;
        await transmit(document);
      }
      // The statuses of the documents of the last days still in their lifecycle, those read longest ago first.
      const nowMs = now.getTime();
      const followed = await sentPlatformDocuments(runtime.readStore, addDays(today, -statusForDays), maxFollowed);
      const readBefore = new Map(followed.map((document) => [document._id, lastRead.get(document._id) ?? -Infinity]));
      lastRead.clear();
      for (const [id, at] of readBefore) lastRead.set(id, at);
      const due = followed.filter((document) => nowMs - readBefore.get(document._id)! >= statusEveryMs);
      due.sort((a, b) => readBefore.get(a._id)! - readBefore.get(b._id)!);
      for (const document of due.slice(0, batch)) {
        if (!stillHeld()) return;
        lastRead.set(document._id, nowMs);
        await pollStatus(document);
      }
    },
  };
};

/** The outbox on its schedule (every 5 s by default), in the instance holding its lease. */
export const startPlatformTransmissionJob = (
  runtime: JobRuntime,
  deps: PlatformOutboxDeps,
  options: PlatformOutboxOptions & { everySeconds?: number } = {},
): LeasedJob => {
  const outbox = createPlatformOutbox(runtime, deps, options);
  return startLeasedJob(runtime, {
    name: platformJobName,
    pattern: everySecondsPattern(options.everySeconds ?? 5),
    run: outbox.run,
    failure: 'the platform outbox run failed; the next run tries again',
  });
};
