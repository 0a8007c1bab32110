import type { Document, Filter, Sort, UpdateFilter } from 'mongodb';

/**
 * The read-store port: the subset of the MongoDB driver's `Db` / `Collection` API that the projections
 * and queries use. The MongoDB adapter is the driver itself; the embedded adapter (SQLite) answers the
 * same filters and update operators, in SQL on its indexes where that is exact. Keep this surface
 * small: every method here must behave the same on both.
 */

export type { Document, Filter, Sort, UpdateFilter };

export type FindOptions = {
  sort?: Sort;
  skip?: number;
  limit?: number;
  projection?: Document;
};

export type UpdateOptions = { upsert?: boolean };

export type UpdateResult = {
  acknowledged: boolean;
  matchedCount: number;
  modifiedCount: number;
  upsertedCount: number;
  upsertedId: unknown;
};

export type DeleteResult = { acknowledged: boolean; deletedCount: number };
export type InsertOneResult = { acknowledged: boolean; insertedId: unknown };

export type IndexSpecification = Record<string, 1 | -1>;
export type CreateIndexOptions = { unique?: boolean; name?: string; sparse?: boolean };

export type BulkUpdateOne<T extends Document> = {
  updateOne: { filter: Filter<T>; update: UpdateFilter<T>; upsert?: boolean };
};

export interface Cursor<T> {
  toArray(): Promise<T[]>;
}

export interface ReadCollection<T extends Document = Document> {
  readonly collectionName: string;
  findOne(filter: Filter<T>, options?: FindOptions): Promise<T | null>;
  find(filter: Filter<T>, options?: FindOptions): Cursor<T>;
  countDocuments(filter?: Filter<T>): Promise<number>;
  insertOne(doc: T): Promise<InsertOneResult>;
  updateOne(filter: Filter<T>, update: UpdateFilter<T>, options?: UpdateOptions): Promise<UpdateResult>;
  updateMany(filter: Filter<T>, update: UpdateFilter<T>, options?: UpdateOptions): Promise<UpdateResult>;
  replaceOne(filter: Filter<T>, replacement: T, options?: UpdateOptions): Promise<UpdateResult>;
  deleteOne(filter: Filter<T>): Promise<DeleteResult>;
  deleteMany(filter: Filter<T>): Promise<DeleteResult>;
  bulkWrite(operations: BulkUpdateOne<T>[], options?: { ordered?: boolean }): Promise<unknown>;
  aggregate<R extends Document = Document>(pipeline: Document[]): Cursor<R>;
  createIndex(spec: IndexSpecification, options?: CreateIndexOptions): Promise<string>;
}

/**
 * Whole documents to store under their `_id`, and `_id`s to delete, in one collection. `put` inserts or
 * replaces; `insert` holds documents the writer saw absent (a store may write them more cheaply, and
 * takes one found there after all as already written).
 */
export type DocumentWrites = { collection: string; put: readonly Document[]; insert?: readonly Document[]; remove?: readonly unknown[] };

export interface ReadStore {
  collection<T extends Document = Document>(name: string): ReadCollection<T>;
  /** Names of the collections that hold documents. */
  listCollectionNames(): Promise<string[]>;
  /**
   * The projections' batches: every write of a batch, then `last` (the batch's checkpoints) once they
   * are made. The embedded store makes them all in one transaction (all or nothing); MongoDB in one
   * unordered bulk write per collection, the collections side by side, then `last`: a checkpoint never
   * runs ahead of its documents. A document carrying `_position` never replaces one that has seen a
   * later event (an instance that overran its lease cannot undo the work of the one that took it over).
   */
  writeDocuments(writes: readonly DocumentWrites[], last?: DocumentWrites): Promise<void>;
  /** Drops a collection with its documents and indexes; handles stay usable. */
  dropCollection(name: string): Promise<void>;
  /** Drops every collection (used to rebuild read models from the event log). */
  dropAll(): Promise<void>;
  /**
   * Leaves no byte of replaced or deleted values in the store's files (after an erasure): the embedded
   * store checkpoints and truncates its write-ahead log. Absent where the server manages its own files.
   */
  releaseFreedBytes?(): Promise<void>;
  close(): Promise<void>;
}

/** A unique index refused a write (MongoDB's E11000). */
export class DuplicateKeyError extends Error {
  readonly code = 11000;
  constructor(collection: string, key: Document) {
    super(`E11000 duplicate key error collection: ${collection} dup key: ${JSON.stringify(key)}`);
    this.name = 'DuplicateKeyError';
  }
}

/**
 * The read store could not be reached (a lost connection, no server to talk to): the operation may be
 * tried again later. Projections wait and retry on it instead of stopping; any other error is a fault.
 */
export class ReadStoreUnavailableError extends Error {
  readonly code = 'READ_STORE_UNAVAILABLE';
  constructor(options: { cause: unknown }) {
    super(`Read store unavailable: ${(options.cause as Error | undefined)?.message ?? String(options.cause)}`, options);
    this.name = 'ReadStoreUnavailableError';
  }
}
