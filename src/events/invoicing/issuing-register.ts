import { setTimeout as sleep } from 'node:timers/promises';
import { localDateIn } from '../../time/local-dates.ts';
import type { Clock, CommandContext } from '../command-context.ts';
import { ConcurrencyConflictError } from '../command-handler.ts';
import { appendDomainEvents } from '../domain-store.ts';
import { WrongExpectedVersionError, type EventStore, type RecordedEvent } from '../store/event-store.ts';
import { documentNumber, registerStreamName, type DocumentKind, type InvoicingEvent } from './events.ts';

/**
 * A register of numbered documents (the invoices, the credit notes): it issues them with numbers from
 * one continuous sequence per calendar year, with no gap and no duplicate.
 *
 * - The number is the issuing event's revision in the year's stream plus one, and the event is
 *   appended with the expected revision: allocating the number and recording the document are one
 *   all-or-nothing append, so a crash leaves either the issued document or nothing, never a hole.
 * - In this process, one batch at a time: the requests waiting are drafted together and appended in
 *   one write (up to `maxBatch` events, `maxBatchBytes` of data), so a thousand first requests at once
 *   make a few appends, none of which conflicts with another of this process. Other processes are
 *   kept out by the revision check: the loser reads the register again and drafts again.
 * - A request says what to issue given what its sale already has (`draft`, pure): nothing when its
 *   invoice exists, which makes issuing idempotent per sale. What the sale already has is read from the
 *   read model once it has applied the register's last event (this year's and last year's, so that a
 *   document issued on 31 December is seen on 1 January): together with the expected revision of the
 *   append, no document issued anywhere can be missed. When the read model cannot catch up in time,
 *   the request fails (RegisterBehindError) rather than risk issuing a sale's document twice.
 *
 * The year is the issue date's, in the planning's time zone.
 */

export type Numbered = { number: string; year: number; sequence: number; issuedAt: string; issuedOn: string };

export type IssueRequest<Data> = {
  saleId: number;
  /** What to issue, given the documents of this kind the sale already has (oldest first); null: nothing to issue. Pure. */
  draft: (numbered: Numbered, earlier: readonly Data[]) => Data | null;
};

export type IssueResult<Data> = { issued: Data | null; earlier: Data[] };

export type IssuingRegister<Data> = { issue: (request: IssueRequest<Data>) => Promise<IssueResult<Data>> };

export type RegisterDeps<Data> = {
  kind: DocumentKind;
  eventStore: EventStore;
  clock: Clock;
  context: CommandContext;
  timezone: string;
  toEvent: (data: Data) => InvoicingEvent;
  /** The documents of this kind the read model holds for these sales, oldest first per sale. */
  issuedFor: (saleIds: readonly number[]) => Promise<Map<number, Data[]>>;
  /** Resolves true once the read model has applied every event up to this position, false if it could not in time. */
  caughtUp: (position: number) => Promise<boolean>;
  maxBatch?: number;
  maxBatchBytes?: number;
  maxAttempts?: number;
};

/** The register's read model lags too far behind its log to tell whether the document already exists. */
export class RegisterBehindError extends Error {
  readonly code = 'REGISTER_BEHIND';
  constructor(kind: DocumentKind) {
    super(`The ${kind} register's read model is behind its log; retry shortly`);
    this.name = 'RegisterBehindError';
  }
}

type Waiting<Data> = IssueRequest<Data> & { resolve: (result: IssueResult<Data>) => void; reject: (error: unknown) => void };

export const createIssuingRegister = <Data>(deps: RegisterDeps<Data>): IssuingRegister<Data> => {
  const maxBatch = deps.maxBatch ?? 100;
  // Under EventStoreDB's default 1 MiB limit of one append, with room for the metadata.
  const maxBatchBytes = deps.maxBatchBytes ?? 512 * 1024;
  const maxAttempts = deps.maxAttempts ?? 50;
  const localDate = localDateIn(deps.timezone);
  const waiting: Waiting<Data>[] = [];
  let draining = false;

  const lastEventOf = async (streamName: string): Promise<RecordedEvent | undefined> =>
    (await deps.eventStore.readStream(streamName, { direction: 'backwards', maxCount: 1 }))[0];

  /** Drafts the batch's documents in order, against what each sale has and what the batch itself issues. */
  const draftBatch = (batch: readonly Waiting<Data>[], known: Map<number, Data[]>, first: Omit<Numbered, 'number' | 'sequence'> & { sequence: number }) => {
    const earlier = new Map([...known].map(([saleId, documents]) => [saleId, [...documents]]));
    const drafted: { request: Waiting<Data>; issued: Data | null; earlier: Data[] }[] = [];
    const events: InvoicingEvent[] = [];
    let sequence = first.sequence;
    let bytes = 0;
    for (const request of batch) {
      const before = earlier.get(request.saleId) ?? [];
      const numbered: Numbered = { ...first, sequence, number: documentNumber(deps.kind, first.year, sequence) };
      const issued = request.draft(numbered, before);
      if (issued !== null) {
        const event = deps.toEvent(issued);
        const size = JSON.stringify(event.data).length;
        // What does not fit waits for the next batch (the first always fits: a document is far below the limit).
        if (events.length > 0 && bytes + size > maxBatchBytes) break;
        bytes += size;
        events.push(event);
        earlier.set(request.saleId, [...before, issued]);
        sequence++;
      }
      drafted.push({ request, issued, earlier: before });
    }
    return { drafted, events };
  };

  const issueBatch = async (batch: Waiting<Data>[]): Promise<Waiting<Data>[]> => {
    for (let attempt = 1; ; attempt++) {
      const issuedAt = deps.clock.now().toISOString();
      const issuedOn = localDate(issuedAt);
      const year = Number(issuedOn.slice(0, 4));
      const streamName = registerStreamName(deps.kind, year);
      const [last, lastOfPreviousYear] = await Promise.all([lastEventOf(streamName), lastEventOf(registerStreamName(deps.kind, year - 1))]);
      const position = Math.max(last?.position ?? -1, lastOfPreviousYear?.position ?? -1);
      if (position >= 0 && !(await deps.caughtUp(position))) throw new RegisterBehindError(deps.kind);
      const known = await deps.issuedFor([...new Set(batch.map((request) => request.saleId))]);
      const { drafted, events } = draftBatch(batch, known, { year, sequence: last ? last.revision + 2 : 1, issuedAt, issuedOn });
      const left = batch.slice(drafted.length);
      if (events.length > 0) {
        try {
          const result = await appendDomainEvents(deps.eventStore, streamName, events, deps.context, new Date(issuedAt), last ? last.revision : 'no_stream');
          // Read-your-writes: a document issued is found by number as soon as it is answered.
          await deps.caughtUp(result.position);
        } catch (error) {
          if (!(error instanceof WrongExpectedVersionError)) throw error;
          if (attempt >= maxAttempts) throw new ConcurrencyConflictError(streamName, attempt);
          // Another process issued meanwhile: read the register again, after a pause that spreads the racers.
          await sleep(Math.random() * Math.min(50, 2 * attempt));
          continue;
        }
      }
      for (const { request, issued, earlier } of drafted) request.resolve({ issued, earlier });
      return left;
    }
  };

  const drain = async (): Promise<void> => {
    draining = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting.splice(0, maxBatch);
        try {
          const left = await issueBatch(batch);
          waiting.unshift(...left);
        } catch (error) {
          for (const request of batch) request.reject(error);
        }
      }
    } finally {
      draining = false;
    }
  };

  return {
    issue: (request) =>
      new Promise((resolve, reject) => {
        waiting.push({ ...request, resolve, reject });
        if (!draining) void drain();
      }),
  };
};
