import Database from 'better-sqlite3';
import { EventStoreUnavailableError, type EventFilter, type EventStore, type RecordedEvent } from './event-store.ts';
import { assertExpectedRevision, assertStreamName, validateNewEvents, validateReadAllOptions, validateReadStreamOptions } from './event-store-validation.ts';
import { GroupCommit } from './sqlite-group-commit.ts';
import { LiveSignal } from './sqlite-live-signal.ts';
import { openDatabase, prepareStatements, toRecordedEvent, toUnparsedEvent, type FilterKind } from './sqlite-schema.ts';
import { CatchUpSubscription } from './sqlite-subscription.ts';

export type SqliteEventStoreOptions = {
  file: string;
  /** How long an append waits for another process holding the write lock. Default 5 s. */
  busyTimeoutMs?: number;
  /** How often a live subscription looks for events appended by another process. Default 100 ms. */
  pollIntervalMs?: number;
  /** Events a subscription reads per page. Default 500. */
  pageSize?: number;
  /** Most appends committed in one transaction. Default 256. */
  maxAppendsPerCommit?: number;
  /** Most bytes of event payloads committed in one transaction. Default 4 MiB. */
  maxBytesPerCommit?: number;
};

export interface SqliteEventStore extends EventStore {
  /** SQLite's own consistency check of the file: `['ok']` when it is sound, else the problems found. */
  integrityCheck(): Promise<string[]>;
}

const END = Number.MAX_SAFE_INTEGER;
const NO_LIMIT = -1;
/**
 * Below one event in this many passing its filter, a window is read through the type index: walking
 * costs about 0.6 us per event passed over, the index and its sort about 14 us per event found
 * (measured on the demo log).
 */
const sparse = 20;

// Errors of the file or of the lock, as opposed to a bug in a request.
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|NOTADB|CORRUPT)/;

const translateError = (error: unknown): unknown =>
  error instanceof Database.SqliteError && UNAVAILABLE.test(error.code)
    ? new EventStoreUnavailableError(`The event store file is unavailable: ${error.message}`, { cause: error })
    : error;

const filterParams = (filter: EventFilter | undefined): { kind: FilterKind; filter: string } => {
  if (filter === undefined) return { kind: 'none', filter: '[]' };
  if ('eventTypes' in filter) return { kind: 'eventTypes', filter: JSON.stringify(filter.eventTypes) };
  return { kind: 'streamPrefixes', filter: JSON.stringify(filter.streamPrefixes) };
};

/**
 * The embedded adapter of the event-store port: one SQLite file, which other processes (a CLI run
 * while the server runs) may open and append to concurrently.
 *
 * Positions are SQLite row ids, starting at 1. `readAll` forwards returns events strictly after
 * `fromPosition`; backwards it starts from the end of the log, or strictly before `fromPosition`.
 *
 * Appends go through group commit (sqlite-group-commit.ts): an append's promise settles once the
 * transaction holding it has committed, so reads, which never see an open transaction, return only
 * committed events, and a read made after an append resolved sees it. `close()` first commits the
 * appends already accepted (their promises settle as usual), then refuses every call.
 */
export function openSqliteEventStore(options: SqliteEventStoreOptions): SqliteEventStore {
  if (typeof options.file !== 'string' || options.file === '') throw new TypeError('The event store needs a file');
  const db = openDatabase(options.file, options.busyTimeoutMs ?? 5_000);
  const statements = prepareStatements(db);
  const pageSize = options.pageSize ?? 500;
  let closed = false;

  const use = <T>(operation: () => T): T => {
    if (closed) throw new EventStoreUnavailableError('The event store is closed');
    try {
      return operation();
    } catch (error) {
      throw translateError(error);
    }
  };

  const head = (): number => use(() => statements.head.get()?.head ?? -1);
  const signal = new LiveSignal(head, options.pollIntervalMs ?? 100);
  const subscriptions = new Set<CatchUpSubscription>();
  const groupCommit = new GroupCommit(db, statements, {
    maxAppends: options.maxAppendsPerCommit ?? 256,
    maxBytes: options.maxBytesPerCommit ?? 4 * 1024 * 1024,
    onCommitted: () => signal.notify(),
    translateError,
  });

  /**
   * A filtered read runs window by window over positions. A filter most events pass (the projections',
   * say) is read walking the window's positions in order, each event tested. A filter few events pass
   * is read through the type index, its events then sorted by position: an unbounded range would read
   * and sort every later event of those types for each page (a catch-up quadratic in the log), so the
   * window bounds the sort; it starts a few pages wide and doubles while it finds few events (a filter
   * on rare types crosses a long log in a few reads). Which of the two: the first window is walked, and
   * one in which fewer than one event in `sparse` passed turns the read to the index.
   */
  const readForwards = (kind: FilterKind, filter: string, after: number, upTo: number, limit: number): RecordedEvent[] =>
    use(() => {
      const { forwards, forwardsInOrder } = statements.readAll[kind];
      if (kind === 'none') return forwards.all({ after, upTo, before: END, limit, filter }).map(toRecordedEvent);
      const wanted = limit < 0 ? Number.MAX_SAFE_INTEGER : limit;
      const found: RecordedEvent[] = [];
      let from = after;
      let window = Math.max(Math.min(wanted, 10_000) * 4, 64);
      let statement = forwardsInOrder;
      while (found.length < wanted && from < upTo) {
        const to = Math.min(upTo, from + window);
        const rows = statement.all({ after: from, upTo: to, before: END, limit: wanted - found.length, filter });
        for (const row of rows) found.push(toRecordedEvent(row));
        if (found.length >= wanted) break;
        if (rows.length * sparse < to - from) statement = forwards;
        from = to;
        if (from >= head()) break;
        window = Math.min(window * 2, 1_000_000);
      }
      return found;
    });

  return {
    async appendToStream(streamName, events, appendOptions = {}) {
      const request = use(() => {
        assertStreamName(streamName);
        const expected = appendOptions.expectedRevision ?? 'any';
        assertExpectedRevision(expected);
        return { streamName, events: validateNewEvents(events), expected };
      });
      return groupCommit.append(request);
    },

    async readStream(streamName, readOptions = {}) {
      return use(() => {
        assertStreamName(streamName);
        validateReadStreamOptions(readOptions);
        const limit = readOptions.maxCount ?? NO_LIMIT;
        const rows =
          readOptions.direction === 'backwards'
            ? statements.streamBackwards.all(streamName, readOptions.fromRevision ?? END, limit)
            : statements.streamForwards.all(streamName, readOptions.fromRevision ?? 0, limit);
        return rows.map(toRecordedEvent);
      });
    },

    async readAll(readOptions = {}) {
      return use(() => {
        validateReadAllOptions(readOptions);
        const { kind, filter } = filterParams(readOptions.filter);
        const limit = readOptions.maxCount ?? NO_LIMIT;
        if (readOptions.direction !== 'backwards') return readForwards(kind, filter, readOptions.fromPosition ?? -1, END, limit);
        const range = { after: -1, upTo: END, before: readOptions.fromPosition ?? END, limit, filter };
        return statements.readAll[kind].backwards.all(range).map(toRecordedEvent);
      });
    },

    async readAllUnparsed(fromPosition, maxCount) {
      return use(() => {
        validateReadAllOptions({ fromPosition, maxCount });
        return statements.unparsedForwards.all(fromPosition, maxCount).map(toUnparsedEvent);
      });
    },

    subscribeToAll(subscribeOptions = {}) {
      return use(() => {
        validateReadAllOptions({ fromPosition: subscribeOptions.fromPosition, filter: subscribeOptions.filter });
        const { kind, filter } = filterParams(subscribeOptions.filter);
        const source = {
          head,
          signal,
          pageSize,
          readPage: (after: number, upTo: number, limit: number) => readForwards(kind, filter, after, upTo, limit),
        };
        const subscription = new CatchUpSubscription(source, subscribeOptions.fromPosition ?? -1, (ended) => subscriptions.delete(ended));
        subscriptions.add(subscription);
        return subscription;
      });
    },

    async headPosition() {
      return head();
    },

    async integrityCheck() {
      return use(() => (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check));
    },

    async close() {
      if (closed) return;
      closed = true;
      groupCommit.drain();
      for (const subscription of [...subscriptions]) subscription.stop();
      signal.close();
      db.close();
    },
  };
}
