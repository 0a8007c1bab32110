import type Database from 'better-sqlite3';

/**
 * Writes of the key store that share one transaction, hence one fsync. The key store runs with
 * `synchronous = FULL` (a key must be on disk before an event sealed with it is acknowledged), and
 * better-sqlite3 commits on the event loop: one transaction per new customer key and per stream noted
 * held up every other request for an fsync each (two per imported order). The writes requested during
 * one turn of the event loop are committed together on the next turn (setImmediate), as the event
 * store's group commit does; each promise settles once that COMMIT has returned, so a write that
 * resolved is durable. If the transaction fails, every write of the batch rejects with its error.
 */
export type WriteBatch = {
  write: (run: () => void) => Promise<void>;
  /** Commits the writes waiting for the next turn now (before the database closes). */
  flush: () => void;
};

export const sqliteWriteBatch = (db: Database.Database): WriteBatch => {
  let pending: { run: () => void; resolve: () => void; reject: (error: unknown) => void }[] = [];
  let turn: NodeJS.Immediate | undefined;
  const commitAll = db.transaction((writes: readonly { run: () => void }[]) => {
    for (const { run } of writes) run();
  });
  const commit = (): void => {
    const writes = pending;
    pending = [];
    if (turn) clearImmediate(turn);
    turn = undefined;
    if (writes.length === 0) return;
    try {
      commitAll.immediate(writes);
    } catch (error) {
      for (const { reject } of writes) reject(error);
      return;
    }
    for (const { resolve } of writes) resolve();
  };
  return {
    write: (run) =>
      new Promise((resolve, reject) => {
        pending.push({ run, resolve, reject });
        turn ??= setImmediate(commit);
      }),
    flush: commit,
  };
};
