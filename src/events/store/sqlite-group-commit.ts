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
 * (setImmediate): a lone append waits for nothing else.
 *
 * Each append runs in a SAVEPOINT of its own, in arrival order: it sees the appends before it (a
 * second append to a stream is checked against the first one's result), and when it fails (wrong
 * expected revision) it is rolled back alone while the others go on. Promises settle only after the
 * COMMIT has returned, so an acknowledged append is durable; if the transaction as a whole fails,
 * every append of the group rejects with that failure, since none of them was committed.
 */

export type AppendRequest = { streamName: string; events: readonly SerialisedEvent[]; expected: ExpectedRevision };

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

export class GroupCommit {
  private readonly groups: Group[] = [];
  private turn: NodeJS.Immediate | undefined;
  private readonly sql: ReturnType<typeof prepareTransactionControl>;

  constructor(
    private readonly db: Database.Database,
    private readonly statements: Statements,
    private readonly options: GroupCommitOptions,
  ) {
    this.sql = prepareTransactionControl(db);
  }

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
      this.turn ??= setImmediate(() => this.commitNextGroup());
    });
  }

  /** Commits every pending group now (used by close). */
  drain(): void {
    clearImmediate(this.turn);
    this.turn = undefined;
    for (let group = this.groups.shift(); group !== undefined; group = this.groups.shift()) this.commit(group.appends);
  }

  private commitNextGroup(): void {
    this.turn = undefined;
    const group = this.groups.shift();
    if (group !== undefined) this.commit(group.appends);
    // One group per turn, so that reads and I/O callbacks get their turn between groups.
    if (this.groups.length > 0) this.turn = setImmediate(() => this.commitNextGroup());
  }

  private commit(appends: readonly PendingAppend[]): void {
    const recordedAt = new Date().toISOString();
    const settlements: (() => void)[] = [];
    let written = false;
    try {
      this.sql.begin();
      for (const append of appends) {
        this.sql.savepoint();
        try {
          const outcome = appendInTransaction(this.statements, append.streamName, append.events, append.expected, recordedAt);
          this.sql.release();
          written ||= outcome.written;
          settlements.push(() => append.resolve(outcome.result));
        } catch (error) {
          // SQLite may have rolled the whole transaction back (disk full, I/O error): the group fails.
          if (!this.db.inTransaction) throw error;
          this.sql.rollbackTo();
          this.sql.release();
          settlements.push(() => append.reject(this.options.translateError(error)));
        }
      }
      this.sql.commit();
    } catch (error) {
      this.abandon();
      const failure = this.options.translateError(error);
      for (const append of appends) append.reject(failure);
      return;
    }
    if (written) this.options.onCommitted();
    for (const settle of settlements) settle();
  }

  private abandon(): void {
    try {
      if (this.db.inTransaction) this.sql.rollback();
    } catch {
      // Rolling back failed too: SQLite rolls the transaction back itself when it cannot go on.
    }
  }
}
