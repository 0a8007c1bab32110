import { MongoBulkWriteError, MongoClient, MongoError, MongoNetworkError, MongoServerSelectionError } from 'mongodb';
import type { AnyBulkWriteOperation, Collection, Db, OptionalUnlessRequiredId, WithId } from 'mongodb';
import { DuplicateKeyError, ReadStoreUnavailableError } from './read-store.ts';
import type { Cursor, Document, DocumentWrites, ReadCollection, ReadStore } from './read-store.ts';

/**
 * The MongoDB adapter of the read-store port: the driver itself. The port is a subset of the driver's
 * `Collection` API, so each method delegates as is; the only translations are of errors, so that callers
 * test one class whatever the backend: MongoDB's E11000 into the port's `DuplicateKeyError`, and the
 * driver's "no server reachable" errors into `ReadStoreUnavailableError`.
 */

export type MongoReadStoreOptions = {
  /** A MongoDB connection string (`mongodb://` or `mongodb+srv://`). */
  url: string;
  /** Defaults to the database named in the URL, else `sav`. */
  dbName?: string;
};

export const openMongoReadStore = async (options: MongoReadStoreOptions): Promise<ReadStore> => {
  const client = await new MongoClient(options.url).connect();
  const db = client.db(options.dbName ?? databaseInUrl(options.url) ?? 'sav');
  const handles = new Map<string, ReadCollection>();

  return {
    collection: <T extends Document = Document>(name: string) => {
      let found = handles.get(name);
      if (!found) {
        found = mongoCollection(db.collection(name));
        handles.set(name, found);
      }
      return found as unknown as ReadCollection<T>;
    },
    listCollectionNames: async () => userCollectionNames(db),
    writeDocuments: async (writes, last) => {
      // Round trips side by side: a batch touches a dozen collections.
      await Promise.all(writes.map((write) => writeDocuments(db.collection(write.collection), write)));
      if (last) await writeDocuments(db.collection(last.collection), last);
    },
    dropCollection: async (name) => {
      await db.dropCollection(name).catch((error: unknown) => {
        // Dropping a collection that does not exist is not an error here (NamespaceNotFound).
        if ((error as { code?: unknown }).code !== 26) throw portError(name, error);
      });
    },
    dropAll: async () => {
      for (const name of await userCollectionNames(db)) await db.dropCollection(name);
    },
    close: () => client.close(),
  };
};

/**
 * One unordered bulk write per collection. A tracked document replaces the stored one only if that one
 * has not seen its last event (`_position` lower): when it has, the filter misses, the upsert collides
 * on `_id`, and that duplicate means "already there" and is ignored; any other failure is reported.
 */
const writeDocuments = async (collection: Collection<Document>, { put, insert = [], remove = [] }: DocumentWrites): Promise<void> => {
  // Operations whose duplicate key means "already written": guarded replacements and inserts.
  const alreadyThere = new Set<number>();
  const operations: AnyBulkWriteOperation<Document>[] = [];
  for (const doc of put) {
    if (typeof doc._position === 'number') {
      alreadyThere.add(operations.length);
      operations.push({ replaceOne: { filter: { _id: doc._id as never, _position: { $lt: doc._position } }, replacement: doc, upsert: true } });
    } else operations.push({ replaceOne: { filter: { _id: doc._id as never }, replacement: doc, upsert: true } });
  }
  // An insert is also what a server without filter push-down writes fastest (no collection scan).
  for (const doc of insert) {
    alreadyThere.add(operations.length);
    operations.push({ insertOne: { document: doc } });
  }
  for (const id of remove) operations.push({ deleteOne: { filter: { _id: id as never } } });
  if (operations.length === 0) return;
  try {
    await collection.bulkWrite(operations, { ordered: false });
  } catch (error) {
    const failures = error instanceof MongoBulkWriteError ? [error.writeErrors].flat() : undefined;
    if (failures && failures.length > 0 && failures.every((failure) => failure.code === 11000 && alreadyThere.has(failure.index))) return;
    throw portError(collection.collectionName, error);
  }
};

const userCollectionNames = async (db: Db): Promise<string[]> => {
  const listed = await db.listCollections({}, { nameOnly: true }).toArray();
  return listed.map((c) => c.name).filter((name) => !name.startsWith('system.'));
};

/** `mongodb://host1,host2/orders?replicaSet=rs` names `orders`; the driver would otherwise pick `test`. */
export const databaseInUrl = (url: string): string | undefined => {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]*\/([^?]+)/.exec(url);
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
};

const mongoCollection = (c: Collection<Document>): ReadCollection => {
  const guarded = <R>(operation: Promise<R>): Promise<R> => operation.catch((error: unknown) => Promise.reject(portError(c.collectionName, error)));
  const cursor = <R>(found: { toArray(): Promise<R[]> }): Cursor<R> => ({ toArray: () => guarded(found.toArray()) });
  return {
    collectionName: c.collectionName,
    findOne: (filter, options) => guarded(c.findOne(filter, options) as Promise<WithId<Document> | null>),
    find: (filter, options) => cursor(c.find(filter, options)),
    countDocuments: (filter) => guarded(c.countDocuments(filter)),
    insertOne: (doc) => guarded(c.insertOne(doc as OptionalUnlessRequiredId<Document>)),
    updateOne: (filter, update, options) => guarded(c.updateOne(filter, update, options)),
    updateMany: (filter, update, options) => guarded(c.updateMany(filter, update, options)),
    replaceOne: (filter, replacement, options) => guarded(c.replaceOne(filter, replacement, options)),
    deleteOne: (filter) => guarded(c.deleteOne(filter)),
    deleteMany: (filter) => guarded(c.deleteMany(filter)),
    bulkWrite: (operations, options) => guarded(c.bulkWrite(operations, options)),
    aggregate: <R extends Document = Document>(pipeline: Document[]) => cursor(c.aggregate<R>(pipeline)),
    createIndex: (spec, options) => guarded(c.createIndex(spec, options)),
  };
};

/** The driver's errors the port names; others pass as they are. */
const portError = (collection: string, error: unknown): unknown => {
  if (unreachable(error)) return new ReadStoreUnavailableError({ cause: error });
  return duplicateKeyOr(collection, error);
};

/**
 * No server answered (lost connection, none selectable in time) or the primary stepped down: the same
 * operation can succeed later. Every write of the projections is idempotent, so retrying one whose
 * outcome is unknown is safe.
 */
const unreachable = (error: unknown): boolean =>
  error instanceof MongoNetworkError ||
  error instanceof MongoServerSelectionError ||
  (error instanceof MongoError && error.hasErrorLabel('RetryableWriteError'));

/** The driver's E11000 (a server error, or a bulk write's first write error) as the port's error. */
const duplicateKeyOr = (collection: string, error: unknown): unknown => {
  if ((error as { code?: unknown } | null)?.code !== 11000) return error;
  const keyValue = (error as { keyValue?: Document }).keyValue;
  const duplicate = new DuplicateKeyError(collection, keyValue ?? {});
  duplicate.cause = error;
  return duplicate;
};
