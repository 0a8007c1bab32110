import Database from 'better-sqlite3';
import { personalDataOf } from '../registry.ts';
import type { EventMetadata, JsonObject, NewEvent } from '../store/event-store.ts';
import type { EncryptingEventStore } from './encrypting-event-store.ts';
import type { KeyStore } from './key-store.ts';

export type MigrationProgress = { legacyHead: number; migratedUpTo: number; sealed: number };

type Row = { position: number; stream_name: string; event_id: string; type: string; data: string; metadata: string };

/**
 * `cli events encrypt-personal-data` on the embedded log: the events written before encryption (up to
 * the head the key store first saw) get their personal fields sealed, in place, in position order,
 * as the encrypting layer would have appended them; nothing else of an event changes (id, position,
 * revision, type, the rest of its data). Explicit, never done behind the operator's back.
 *
 * Resumable and idempotent: each batch is one transaction, then its last position is noted in the key
 * store; after a crash the next run starts from there, and an event already sealed is left as it is.
 * The rows' former bytes are overwritten (`secure_delete`) and the write-ahead log truncated at the
 * end, so the clear values leave the file. Safe beside a running server: a reader sees an event either
 * clear or sealed, and reads it the same either way.
 */
export const migrateSqliteLog = async (options: {
  file: string;
  log: EncryptingEventStore;
  keys: KeyStore;
  /** The log's name in the key store's migration state. */
  logIdentity: string;
  batchSize?: number;
  onBatch?: (progress: MigrationProgress) => void;
}): Promise<MigrationProgress> => {
  const batchSize = options.batchSize ?? 500;
  const db = new Database(options.file, { timeout: 10_000, fileMustExist: true });
  try {
    db.pragma('secure_delete = ON');
    const select = db.prepare<[number, number, number], Row>(
      'SELECT position, stream_name, event_id, type, data, metadata FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?',
    );
    const update = db.prepare<[string, string, number]>('UPDATE events SET data = ?, metadata = ? WHERE position = ?');
    const rewrite = db.transaction((changes: { position: number; event: NewEvent }[]) => {
      for (const { position, event } of changes) update.run(JSON.stringify(event.data), JSON.stringify(event.metadata), position);
    });
    const { legacyHead, migratedUpTo } = await options.keys.migrationState(options.logIdentity);
    const progress: MigrationProgress = { legacyHead, migratedUpTo, sealed: 0 };
    while (progress.migratedUpTo < legacyHead) {
      const rows = select.all(progress.migratedUpTo, legacyHead, batchSize);
      const changes: { position: number; event: NewEvent }[] = [];
      for (const row of rows) {
        if (!personalDataOf(row.type)) continue;
        const event: NewEvent = {
          id: row.event_id,
          type: row.type,
          data: JSON.parse(row.data) as JsonObject,
          metadata: JSON.parse(row.metadata) as EventMetadata,
        };
        if (event.metadata.personalData) continue;
        const [sealed] = await options.log.sealEvents(row.stream_name, [event]);
        if (sealed && sealed !== event) changes.push({ position: row.position, event: sealed });
      }
      rewrite.immediate(changes);
      // Positions have gaps: an empty range means the legacy part is done.
      progress.migratedUpTo = rows.at(-1)?.position ?? legacyHead;
      progress.sealed += changes.length;
      await options.keys.recordMigratedUpTo(options.logIdentity, progress.migratedUpTo);
      options.onBatch?.({ ...progress });
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    return progress;
  } finally {
    db.close();
  }
};
