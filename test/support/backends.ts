import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { startEsdbTestServer } from './esdb-server/server.ts';
import { mongoTestEnv } from './mongo-backend.ts';

/**
 * Which stores the API specifications run on. By default the embedded ones. With
 * `TEST_BACKENDS=production` (what `npm run test:backends` sets) each API under test gets the production
 * adapters instead: its events go through `@eventstore/db-client` to an EventStoreDB test server of its
 * own (backed by a fresh store in its data folder, so every spec starts on an empty log as it does
 * embedded), and its read models go to a fresh database of the shared MongoDB-compatible server
 * (FerretDB, or the MongoDB named by TEST_MONGODB_URL). With TEST_EVENTSTORE_URL, the events go to
 * that EventStoreDB instead, in a namespace of their own (EVENTSTORE_NAMESPACE), which starts empty as
 * well. `TEST_BACKENDS=mongodb` or `eventstoredb` takes one of the two only.
 */

export type BackendEnv = { env: Record<string, string>; cleanup: () => Promise<void> };

export type Backends = 'embedded' | 'production' | 'eventstoredb' | 'mongodb';

const chosen = (value: string): { events: boolean; readModels: boolean } => {
  switch (value) {
    case 'embedded':
      return { events: false, readModels: false };
    case 'production':
      return { events: true, readModels: true };
    case 'eventstoredb':
      return { events: true, readModels: false };
    case 'mongodb':
      return { events: false, readModels: true };
    default:
      throw new Error(`TEST_BACKENDS must be embedded, production, eventstoredb or mongodb, not ${value}`);
  }
};

/** The stores' settings of a service under test, on the backends TEST_BACKENDS names unless `backends` names others. */
export const testBackendEnv = async (dataDir: string, backends: Backends | undefined = undefined): Promise<BackendEnv> => {
  const { events, readModels } = chosen(backends ?? process.env.TEST_BACKENDS ?? 'embedded');
  const env: Record<string, string> = {};
  const cleanups: (() => Promise<void>)[] = [];
  if (events && process.env.TEST_EVENTSTORE_URL) {
    // A real EventStoreDB is shared: each API under test gets a namespace of its own, hence an empty log.
    env.EVENTSTORE_URL = process.env.TEST_EVENTSTORE_URL;
    env.EVENTSTORE_NAMESPACE = `test_${randomUUID().replaceAll('-', '')}`;
  } else if (events) {
    const server = await startEsdbTestServer({ dataDir: path.join(dataDir, 'eventstoredb') });
    env.EVENTSTORE_URL = server.url;
    cleanups.push(() => server.stop());
  }
  if (readModels) {
    const mongo = await mongoTestEnv();
    env.MONGODB_URL = mongo.env.MONGODB_URL;
    // FerretDB on SQLite projects far slower than memory: the specs read right after their commands, as
    // clients do, so the service waits for its read models as long as that takes rather than 2 s.
    env.READ_YOUR_WRITES_TIMEOUT_MS = '120000';
    cleanups.push(mongo.cleanup);
  }
  return {
    env,
    // The service closes first (its subscriptions and connections), then the servers it used.
    cleanup: async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
};
