import { MongoClient } from 'mongodb';
import type { Collection, Db, OptionalUnlessRequiredId, WithId } from 'mongodb';
import { DuplicateKeyError } from './read-store.ts';
import type { Document, ReadCollection, ReadStore } from './read-store.ts';

/**
 * The MongoDB adapter of the read-store port: the driver itself. The port is a subset of the driver's
 * `Collection` API, so each method delegates as is; the only translation is MongoDB's E11000 into the
 * port's `DuplicateKeyError`, so that callers test one class whatever the backend.
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
    dropAll: async () => {
      for (const name of await userCollectionNames(db)) await db.dropCollection(name);
    },
    close: () => client.close(),
  };
};

const userCollectionNames = async (db: Db): Promise<string[]> => {
  const listed = await db.listCollections({}, { nameOnly: true }).toArray();
  return listed.map((c) => c.name).filter((name) => !name.startsWith('system.'));
};

/** `mongodb://host1,host2/orders?replicaSet=rs` names `orders`; the driver would otherwise pick `test`. */
const databaseInUrl = (url: string): string | undefined => {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]*\/([^?]+)/.exec(url);
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
};

const mongoCollection = (c: Collection<Document>): ReadCollection => {
  const guarded = <R>(write: Promise<R>): Promise<R> => write.catch((error: unknown) => Promise.reject(duplicateKeyOr(c.collectionName, error)));
  return {
    collectionName: c.collectionName,
    findOne: (filter, options) => c.findOne(filter, options) as Promise<WithId<Document> | null>,
    find: (filter, options) => c.find(filter, options),
    countDocuments: (filter) => c.countDocuments(filter),
    insertOne: (doc) => guarded(c.insertOne(doc as OptionalUnlessRequiredId<Document>)),
    updateOne: (filter, update, options) => guarded(c.updateOne(filter, update, options)),
    updateMany: (filter, update, options) => guarded(c.updateMany(filter, update, options)),
    replaceOne: (filter, replacement, options) => guarded(c.replaceOne(filter, replacement, options)),
    deleteOne: (filter) => c.deleteOne(filter),
    deleteMany: (filter) => c.deleteMany(filter),
    bulkWrite: (operations, options) => guarded(c.bulkWrite(operations, options)),
    aggregate: <R extends Document = Document>(pipeline: Document[]) => c.aggregate<R>(pipeline),
    createIndex: (spec, options) => guarded(c.createIndex(spec, options)),
  };
};

/** The driver's E11000 (a server error, or a bulk write's first write error) as the port's error. */
const duplicateKeyOr = (collection: string, error: unknown): unknown => {
  if ((error as { code?: unknown } | null)?.code !== 11000) return error;
  const keyValue = (error as { keyValue?: Document }).keyValue;
  const duplicate = new DuplicateKeyError(collection, keyValue ?? {});
  duplicate.cause = error;
  return duplicate;
};
