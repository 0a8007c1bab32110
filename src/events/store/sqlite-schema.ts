import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { EventMetadata, JsonObject, RecordedEvent, UnparsedEvent } from './event-store.ts';

/** The SQLite file layout of the embedded event store, and the statements it runs (prepared once). */

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position    INTEGER PRIMARY KEY AUTOINCREMENT,
  stream_name TEXT    NOT NULL,
  revision    INTEGER NOT NULL,
  event_id    TEXT    NOT NULL,
  type        TEXT    NOT NULL,
  data        TEXT    NOT NULL,
  metadata    TEXT    NOT NULL,
  recorded_at TEXT    NOT NULL,
  UNIQUE (stream_name, revision),
  UNIQUE (stream_name, event_id)
);
CREATE INDEX IF NOT EXISTS events_by_type ON events (type, position);
`;

export function openDatabase(file: string, busyTimeoutMs: number): Database.Database {
  mkdirSync(dirname(file), { recursive: true });
  // The busy timeout comes first: another process may hold the write lock while we set up.
  const db = new Database(file, { timeout: busyTimeoutMs });
  try {
    db.pragma('journal_mode = WAL');
    // FULL, not NORMAL: in WAL mode NORMAL fsyncs only at checkpoints, so a commit survives a kill -9
    // of the process but can be lost on an OS crash or power cut. With FULL the WAL is fsynced at every
    // commit, hence an acknowledged append survives both. Group commit (sqlite-group-commit.ts) shares
    // that fsync between the appends that arrive together.
    db.pragma('synchronous = FULL');
    // Only matters on macOS, where a plain fsync does not flush the drive's write cache.
    db.pragma('fullfsync = ON');
    db.transaction(() => db.exec(SCHEMA)).immediate();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

type EventRow = {
  position: number;
  stream_name: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
};

export const toRecordedEvent = (row: EventRow): RecordedEvent => ({
  id: row.event_id,
  type: row.type,
  data: JSON.parse(row.data) as JsonObject,
  metadata: JSON.parse(row.metadata) as EventMetadata,
  streamName: row.stream_name,
  revision: row.revision,
  position: row.position,
  recordedAt: row.recorded_at,
});

const COLUMNS = 'position, stream_name, revision, event_id, type, data, metadata, recorded_at';

type UnparsedRow = [position: number, streamName: string, revision: number, id: string, type: string, data: string, metadata: string, recordedAt: string];

export const toUnparsedEvent = (row: UnparsedRow): UnparsedEvent => ({
  position: row[0],
  streamName: row[1],
  revision: row[2],
  id: row[3],
  type: row[4],
  dataJson: row[5],
  metadataJson: row[6],
  recordedAt: row[7],
});

// Filters take their lists as one JSON array parameter, so that each statement is prepared only once.
const FILTERS = {
  none: '1',
  eventTypes: 'type IN (SELECT value FROM json_each(@filter))',
  streamPrefixes: 'EXISTS (SELECT 1 FROM json_each(@filter) WHERE substr(stream_name, 1, length(value)) = value)',
} as const;

export type FilterKind = keyof typeof FILTERS;

export type AllRange = { after: number; upTo: number; before: number; limit: number; filter: string };

export function prepareStatements(db: Database.Database) {
  const readAll = (kind: FilterKind) => ({
    forwards: db.prepare<AllRange, EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE position > @after AND position <= @upTo AND ${FILTERS[kind]}
       ORDER BY position LIMIT @limit`,
    ),
    backwards: db.prepare<AllRange, EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE position < @before AND ${FILTERS[kind]} ORDER BY position DESC LIMIT @limit`,
    ),
    // The same, walking the positions in order and testing each event (no index, no sort): for a filter
    // that most events pass, a few times cheaper than the type index and its sort of whole rows.
    forwardsInOrder: db.prepare<AllRange, EventRow>(
      `SELECT ${COLUMNS} FROM events NOT INDEXED WHERE position > @after AND position <= @upTo AND ${FILTERS[kind]}
       ORDER BY position LIMIT @limit`,
    ),
  });
  return {
    head: db.prepare<[], { head: number | null }>('SELECT MAX(position) AS head FROM events'),
    streamLast: db.prepare<[string], { revision: number; position: number }>(
      'SELECT revision, position FROM events WHERE stream_name = ? ORDER BY revision DESC LIMIT 1',
    ),
    revisionOfId: db.prepare<[string, string], { revision: number }>('SELECT revision FROM events WHERE stream_name = ? AND event_id = ?'),
    anyIdInStream: db.prepare<[string, string], { found: number }>(
      'SELECT 1 AS found FROM events WHERE stream_name = ? AND event_id IN (SELECT value FROM json_each(?)) LIMIT 1',
    ),
    idsFrom: db.prepare<[string, number, number], { event_id: string; position: number }>(
      'SELECT event_id, position FROM events WHERE stream_name = ? AND revision >= ? ORDER BY revision LIMIT ?',
    ),
    insert: db.prepare<[string, number, string, string, string, string, string]>(
      `INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    streamForwards: db.prepare<[string, number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE stream_name = ? AND revision >= ? ORDER BY revision LIMIT ?`,
    ),
    streamBackwards: db.prepare<[string, number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE stream_name = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
    ),
    readAll: { none: readAll('none'), eventTypes: readAll('eventTypes'), streamPrefixes: readAll('streamPrefixes') },
    // Rows as arrays, each made an object here: a third cheaper than better-sqlite3's objects (on bench:notary's log).
    unparsedForwards: db.prepare<[number, number], UnparsedRow>(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`).raw(true),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
