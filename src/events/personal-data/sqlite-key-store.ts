import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { newKey } from './cipher.ts';
import type { CustomerKey, ErasedKey, KeyErasure, KeyStore, MigrationState } from './key-store.ts';
import { normalisedEmail } from '../schema/personal-data.ts';
import { sqliteWriteBatch } from './sqlite-write-batch.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS customer_keys (
  key_id     TEXT PRIMARY KEY,
  subject    TEXT NOT NULL UNIQUE,
  key        BLOB NOT NULL,
  created_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS key_streams (key_id TEXT NOT NULL, stream_name TEXT NOT NULL, PRIMARY KEY (key_id, stream_name)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS erasures (subject TEXT PRIMARY KEY, erased_at TEXT NOT NULL, pending TEXT) WITHOUT ROWID;
`;

/**
 * A new key's ID: 32 hex digits, the first 12 the time it is made (milliseconds), the other 20 random
 * (80 bits). Time-ordered so that the keys, and the streams noted under them, are written at the end
 * of their tables' B-trees rather than at random places in them, each insert dirtying a page of its own
 * (the key store's commits were 13 % of an import's CPU). The time says no more than `created_at`.
 */
export const newKeyId = (now: Date = new Date()): string => now.getTime().toString(16).padStart(12, '0').slice(-12) + randomBytes(10).toString('hex');

/**
 * The embedded key store: `DATA_DIR/keys.sqlite`, shared by the processes of one data folder. Deleted
 * rows are overwritten with zeros (`secure_delete`) and the write-ahead log is checkpointed and
 * truncated after an erasure, so no byte of a deleted key stays in the files.
 */
export const openSqliteKeyStore = (options: { file: string; now?: () => Date }): KeyStore => {
  mkdirSync(dirname(options.file), { recursive: true });
  const db = new Database(options.file, { timeout: 10_000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('secure_delete = ON');
  db.transaction(() => {
    db.exec(SCHEMA);
    db.prepare('INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)').run('pepper', randomBytes(32).toString('base64'));
    db.prepare('INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)').run('erasures', '0');
  }).immediate();
  const setting = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE name = ?');
  const pepper = Buffer.from(setting.get('pepper')!.value, 'base64');
  const keyOfSubject = db.prepare<[string], { key_id: string; key: Buffer }>('SELECT key_id, key FROM customer_keys WHERE subject = ?');
  const insertKey = db.prepare('INSERT OR IGNORE INTO customer_keys (key_id, subject, key, created_at) VALUES (?, ?, ?, ?)');
  const keysById = db.prepare<[string], { key_id: string; key: Buffer }>(
    'SELECT key_id, key FROM customer_keys WHERE key_id IN (SELECT value FROM json_each(?))',
  );
  const insertStream = db.prepare('INSERT OR IGNORE INTO key_streams (key_id, stream_name) VALUES (?, ?)');
  const streamsOf = db.prepare<[string], { stream_name: string }>('SELECT stream_name FROM key_streams WHERE key_id = ? ORDER BY stream_name');
  const erasureOf = db.prepare<[string], { erased_at: string; pending: string | null }>('SELECT erased_at, pending FROM erasures WHERE subject = ?');
  const upsertSetting = db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');
  const now = options.now ?? (() => new Date());
  const batch = sqliteWriteBatch(db);

  const erase = db.transaction((subject: string, erasedAt: string): KeyErasure => {
    const found = keyOfSubject.all(subject);
    if (found.length === 0) {
      const previous = erasureOf.get(subject);
      if (previous?.pending) return { status: 'erased', keys: JSON.parse(previous.pending) as ErasedKey[] };
      return previous ? { status: 'already_erased', erasedAt: previous.erased_at } : { status: 'unknown' };
    }
    const keys: ErasedKey[] = found.map(({ key_id }) => ({ keyId: key_id, streams: streamsOf.all(key_id).map((row) => row.stream_name) }));
    for (const { keyId } of keys) {
      db.prepare('DELETE FROM key_streams WHERE key_id = ?').run(keyId);
      db.prepare('DELETE FROM customer_keys WHERE key_id = ?').run(keyId);
    }
    db.prepare(
      'INSERT INTO erasures (subject, erased_at, pending) VALUES (?, ?, ?) ON CONFLICT (subject) DO UPDATE SET erased_at = excluded.erased_at, pending = excluded.pending',
    ).run(subject, erasedAt, JSON.stringify(keys));
    upsertSetting.run('erasures', String(Number(setting.get('erasures')?.value ?? '0') + 1));
    return { status: 'erased', keys };
  });

  return {
    subjectOf: (email) => createHmac('sha256', pepper).update(normalisedEmail(email)).digest('hex'),
    async keyFor(subject): Promise<CustomerKey> {
      const existing = keyOfSubject.get(subject);
      if (existing) return { keyId: existing.key_id, key: existing.key };
      // Another process (or request) may create it first: theirs is kept, and read back.
      const at = now();
      const [keyId, key, createdAt] = [newKeyId(at), newKey(), at.toISOString()];
      await batch.write(() => insertKey.run(keyId, subject, key, createdAt));
      const created = keyOfSubject.get(subject)!;
      return { keyId: created.key_id, key: created.key };
    },
    async keys(keyIds) {
      if (keyIds.length === 0) return new Map();
      return new Map(keysById.all(JSON.stringify(keyIds)).map((row) => [row.key_id, row.key]));
    },
    async rememberStream(keyId, streamName) {
      await batch.write(() => insertStream.run(keyId, streamName));
    },
    async erase(subject, erasedAt) {
      const outcome = erase.immediate(subject, erasedAt);
      // The deleted rows are zeroed in the file; the log of pages that held them is emptied.
      if (outcome.status === 'erased') db.pragma('wal_checkpoint(TRUNCATE)');
      return outcome;
    },
    async confirmErasure(subject) {
      db.prepare('UPDATE erasures SET pending = NULL WHERE subject = ?').run(subject);
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    async erasureStamp() {
      return setting.get('erasures')?.value ?? '0';
    },
    async migrationState(log): Promise<MigrationState> {
      return {
        legacyHead: Number(setting.get(`legacy_head ${log}`)?.value ?? -1),
        migratedUpTo: Number(setting.get(`migrated_up_to ${log}`)?.value ?? -1),
      };
    },
    async recordLegacyHead(log, head) {
      db.prepare('INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)').run(`legacy_head ${log}`, String(head));
    },
    async recordMigratedUpTo(log, position) {
      upsertSetting.run(`migrated_up_to ${log}`, String(position));
    },
    async close() {
      if (!db.open) return;
      batch.flush();
      db.close();
    },
  };
};
