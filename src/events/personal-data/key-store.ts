/**
 * The key-store port: one AES-256 key per customer, kept apart from the event log (which only ever
 * holds what the keys sealed). Embedded: a SQLite file of its own (sqlite-key-store.ts); production:
 * MongoDB collections in a database of their own (mongo-key-store.ts).
 *
 * A customer is known by a subject: an HMAC of the normalised e-mail with the store's own secret
 * (`pepper`, generated once and kept in the store), so neither the e-mail nor a plain hash of it is
 * stored. The key ID recorded in events is random: once the key and its subject are deleted, nothing
 * links the log's key IDs to an e-mail address any more.
 */

export type CustomerKey = { keyId: string; key: Buffer };

/** What an erasure deleted: the key and the streams that were sealed with it. */
export type ErasedKey = { keyId: string; streams: string[] };

export type KeyErasure = { status: 'erased'; keys: ErasedKey[] } | { status: 'already_erased'; erasedAt: string } | { status: 'unknown' };

/**
 * Which events of a log may hold personal data in clear: those up to `legacyHead`, the log's head when
 * the key store first saw it (written before encryption), until the migration has gone past them. A
 * log is named by its identity (runtime.ts `logIdentity`): an encrypted copy of a log is another log.
 */
export type MigrationState = { legacyHead: number; migratedUpTo: number };

export interface KeyStore {
  /** The subject of an e-mail address (keyed HMAC of its normalised form). */
  subjectOf(email: string): string;
  /** The customer's key, created (with a new random key ID) when there is none. */
  keyFor(subject: string): Promise<CustomerKey>;
  /** The keys still held among these key IDs. */
  keys(keyIds: readonly string[]): Promise<Map<string, Buffer>>;
  /** Notes that a stream holds data sealed with the key (so that an erasure can name it). */
  rememberStream(keyId: string, streamName: string): Promise<void>;
  /**
   * Deletes the subject's key and what links it, and notes the erasure (not the e-mail) for a repeat
   * request. Until `confirmErasure`, the erasure stays pending: a repeat (after a crash before the
   * erasure was recorded in the log) answers the same keys again, so that it is recorded then.
   */
  erase(subject: string, erasedAt: string): Promise<KeyErasure>;
  /** The erasure is recorded in the log: the subject keeps no link to the deleted key IDs. */
  confirmErasure(subject: string): Promise<void>;
  /** A stamp that changes when keys were deleted (by any process): cached keys are then dropped. */
  erasureStamp(): Promise<string>;
  migrationState(log: string): Promise<MigrationState>;
  /** Notes the log's head when the key store first sees it; later calls change nothing. */
  recordLegacyHead(log: string, head: number): Promise<void>;
  recordMigratedUpTo(log: string, position: number): Promise<void>;
  close(): Promise<void>;
}
