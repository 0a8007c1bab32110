import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { onTestFinished } from 'vitest';
import { openMongoReadStore } from '../../src/projections/read-store/mongo-read-store.ts';
import { openSqliteReadStore } from '../../src/projections/read-store/sqlite-read-store.ts';
import type { ReadStore } from '../../src/projections/read-store/read-store.ts';
import { startFerretDb, type FerretDb } from './ferretdb-server.ts';

/**
 * MongoDB read models for the tests. The server is the MongoDB named by TEST_MONGODB_URL, else a
 * FerretDB started on first use and shared by the spec files of one test process (the files of a
 * worker share its modules: vitest.config.ts), stopped when that process ends; each test gets a
 * database of its own.
 *
 * Specs written against the embedded read store (SQLite, in memory) run on MongoDB instead when
 * TEST_READ_STORE=mongodb or TEST_BACKENDS=mongodb|production (as the API specs do, see backends.ts), or
 * when TEST_MONGODB_URL is set, unless TEST_READ_STORE=embedded: `openTestReadStore` picks.
 */

export const readModelsOnMongo = (): boolean => {
  if (process.env.TEST_READ_STORE === 'embedded') return false;
  return (
    process.env.TEST_READ_STORE === 'mongodb' || ['mongodb', 'production'].includes(process.env.TEST_BACKENDS ?? '') || Boolean(process.env.TEST_MONGODB_URL)
  );
};

// Not stopped by an `afterAll` here: registered when this module is first imported, it ran after the
// first file only, and the server a later file started was left running with its process gone.
let server: Promise<FerretDb> | undefined;

/** The shared server's connection string (no database in it). */
export const sharedMongoUrl = async (): Promise<string> => process.env.TEST_MONGODB_URL ?? (await (server ??= startFerretDb())).url;

/** `url` naming the database `dbName` instead of the one it named, if any (options kept). */
export const withDatabase = (url: string, dbName: string): string => {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]*)(?:\/[^?]*)?(\?.*)?$/.exec(url);
  if (!match) throw new Error(`not a MongoDB connection string: ${url}`);
  return `${match[1]}/${dbName}${match[2] ?? ''}`;
};

const dropDatabase = async (url: string, dbName: string): Promise<void> => {
  const client = new MongoClient(url);
  try {
    await client.db(dbName).dropDatabase();
  } finally {
    await client.close();
  }
};

/**
 * The environment of a service whose read models live in a fresh database of the shared server, and
 * the cleanup that drops it. Call it from a test or a `beforeAll`/`beforeEach` of a test file.
 */
export const mongoTestEnv = async (): Promise<{ env: { MONGODB_URL: string }; cleanup: () => Promise<void> }> => {
  const url = await sharedMongoUrl();
  const dbName = `test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  // The service keeps its customers' keys in `<database>_keys` beside it (runtime.ts openKeyStore): dropped too.
  return {
    env: { MONGODB_URL: withDatabase(url, dbName) },
    cleanup: async () => {
      await dropDatabase(url, dbName);
      await dropDatabase(url, `${dbName}_keys`);
    },
  };
};

/** A MongoDB read store on a fresh database, and its cleanup (close and drop). */
export const openFreshMongoReadStore = async (): Promise<{ store: ReadStore; url: string; cleanup: () => Promise<void> }> => {
  const { env, cleanup } = await mongoTestEnv();
  const store = await openMongoReadStore({ url: env.MONGODB_URL });
  return {
    store,
    url: env.MONGODB_URL,
    cleanup: async () => {
      await store.close();
      await cleanup();
    },
  };
};

/** The read store a spec runs on, with its cleanup: embedded (SQLite in memory), or MongoDB (see above). */
export const openTestReadStoreWithCleanup = async (): Promise<{ store: ReadStore; cleanup: () => Promise<void> }> => {
  if (!readModelsOnMongo()) {
    const store = openSqliteReadStore({ file: ':memory:' });
    return { store, cleanup: () => store.close() };
  }
  return openFreshMongoReadStore();
};

/** As above, from inside a test: the store is cleaned up when the test finishes. */
export const openTestReadStore = async (): Promise<ReadStore> => {
  const { store, cleanup } = await openTestReadStoreWithCleanup();
  onTestFinished(cleanup);
  return store;
};
