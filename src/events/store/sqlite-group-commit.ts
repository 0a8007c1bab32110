import type Database from 'better-sqlite3';
import type { AppendResult, ExpectedRevision } from './event-store.ts';
import type { SerialisedEvent } from './event-store-validation.ts';
import { appendInTransaction } from './sqlite-append.ts';
import type { Statements } from './sqlite-schema.ts';

/**
 * Group commit. Under `synchronous = FULL`, kept so that an acknowledged append survives a kill -9
 * and an OS crash (sqlite-schema.ts), every COMMIT waits for an fsync of the WAL, a few milliseconds
 * that dwarf the work of an append: one transaction per append caps the store at a hundred-odd
 * appends per second however many commands run concurrently. So the appends requested during one
 * turn of the event loop share one transaction, hence one fsync, committed on the next turn
 * (setImmediate): a lone append waits for nothing else. While a group is being committed (by a
 * writer thread, sqlite-writer-thread.ts), the appends that arrive meanwhile form the next group,
 * committed once it is done: groups commit one at a time, in the order they were formed.
 *
 * Each append runs in a SAVEPOINT of its own, in arrival order: it sees the appends before it (a
 * second append to a stream is checked against the first one's result), and when it fails (wrong
 * expected revision) it is rolled back alone while the others go on. Promises settle only after the
 * COMMIT has returned, so an acknowledged append is durable; if the transaction as a whole fails,
 * every append of the group rejects with that failure, since none of them was committed.
 */

export type AppendRequest = { streamName: string; events: readonly SerialisedEvent[]; expected: ExpectedRevision };

/** What became of one append of a committed group: its result, or the error it alone failed with (rolled back alone). */
export type AppendOutcome = { ok: true; result: AppendResult; written: boolean } | { ok: false; error: unknown };

/**
 * Commits a group in one transaction: the outcome of each append, in order, or a rejection when the
 * transaction as a whole failed (none of the group committed).
 */
export type Committer = (appends: readonly AppendRequest[], recordedAt: string) => AppendOutcome[] | Promise<AppendOutcome[]>;

export type GroupCommitOptions = {
  /** Most appends one transaction holds, so that a group's latency stays bounded. */
  maxAppends: number;
  /** Most bytes of event payloads one transaction holds; an append larger than that forms a group alone. */
  maxBytes: number;
  /** Called after a commit that wrote events, before the appends' promises settle. */
  onCommitted: () => void;
  /** Turns an error of SQLite into the error the caller gets. */
  translateError: (error: unknown) => unknown;
};

type PendingAppend = AppendRequest & { resolve: (result: AppendResult) => void; reject: (error: unknown) => void };
type Group = { appends: PendingAppend[]; bytes: number };

const sizeOf = (events: readonly SerialisedEvent[]): number =>
  events.reduce((total, event) => total + event.id.length + event.type.length + event.data.length + event.metadata.length, 0);

function prepareTransactionControl(db: Database.Database) {
  const run = (source: string) => {
    const statement = db.prepare(source);
    return () => void statement.run();
  };
  return {
    begin: run('BEGIN IMMEDIATE'),
    savepoint: run('SAVEPOINT one_append'),
    release: run('RELEASE one_append'),
    rollbackTo: run('ROLLBACK TO one_append'),
    commit: run('COMMIT'),
    rollback: run('ROLLBACK'),
  };
}

/** The committer of a connection: each group committed on the calling thread, synchronously. */
export const committerOn = (db: Database.Database, statements: Statements): ((...args: Parameters<Committer>) => AppendOutcome[]) => {
  const sql = prepareTransactionControl(db);
  const abandon = () => {
    try {
      if (db.inTransaction) sql.rollback();
    } catch {
      // Rolling back failed too: SQLite rolls the transaction back itself when it cannot go on.
    }
  };
  return (appends, recordedAt) => {
    const outcomes: AppendOutcome[] = [];
    try {
      sql.begin();
      for (const append of appends) {
        sql.savepoint();
        try {
          const { result, written } = appendInTransaction(statements, append.streamName, append.events, append.expected, recordedAt);
          sql.release();
          outcomes.push({ ok: true, result, written });
        } catch (error) {
          // SQLite may have rolled the whole transaction back (disk full, I/O error): the group fails.
          if (!db.inTransaction) throw error;
          sql.rollbackTo();
          sql.release();
          outcomes.push({ ok: false, error });
        }
      }
      sql.commit();
    } catch (error) {
      abandon();
      throw error;
    }
    return outcomes;
  };
};

export class GroupCommit {
  private readonly groups: Group[] = [];
  private turn: NodeJS.Immediate | undefined;
  /** The group being committed, settled once its appends are. */
  private committing: Promise<void> | undefined;
  private draining = false;

  constructor(
    private readonly committer: Committer,
    private readonly options: GroupCommitOptions,
  ) {}

  append(request: AppendRequest): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      const bytes = sizeOf(request.events);
      let group = this.groups.at(-1);
      const full = group !== undefined && (group.appends.length >= this.options.maxAppends || group.bytes + bytes > this.options.maxBytes);
      if (group === undefined || full) {
        group = { appends: [], bytes: 0 };
        this.groups.push(group);
      }
      group.appends.push({ ...request, resolve, reject });
      group.bytes += bytes;
      this.schedule();
    });
  }

  /** Commits every pending group now, after the one under way (used by close). */
  async drain(): Promise<void> {
    this.draining = true;
    clearImmediate(this.turn);
    this.turn = undefined;
    await this.committing;
    for (let group = this.groups.shift(); group !== undefined; group = this.groups.shift()) await this.commit(group.appends);
  }

  /** The next group on the next turn, once the one under way is done. */
  private schedule(): void {
    if (this.draining || this.turn !== undefined || this.committing !== undefined || this.groups.length === 0) return;
    this.turn = setImmediate(() => this.commitNextGroup());
  }

  private commitNextGroup(): void {
    this.turn = undefined;
    const group = this.groups.shift();
    if (group === undefined) return;
    this.committing = this.commit(group.appends).finally(() => {
      this.committing = undefined;
      // One group per turn, so that reads and I/O callbacks get their turn between groups.
      this.schedule();
    });
  }

  private async commit(appends: readonly PendingAppend[]): Promise<void> {
    let outcomes: AppendOutcome[];
    try {
      outcomes = await this.committer(appends, new Date().toISOString());
    } catch (error) {
      const failure = this.options.translateError(error);
      for (const append of appends) append.reject(failure);
      return;
    }
    if (outcomes.some((outcome) => outcome.ok && outcome.written)) this.options.onCommitted();
    for (const [index, outcome] of outcomes.entries()) {
      const append = appends[index]!;
      if (outcome.ok) append.resolve(outcome.result);
      else append.reject(this.options.translateError(outcome.error));
    }
  }
}
