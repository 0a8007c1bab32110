import path from 'node:path';
import { startEsdbTestServer } from './esdb-server/server.ts';
import { mongoTestEnv } from './mongo-backend.ts';

/**
 * Which stores the API specifications run on. By default the embedded ones. With
 * `TEST_BACKENDS=production` (what `npm run test:backends` sets) each API under test gets the production
 * adapters instead: its events go through `@eventstore/db-client` to an EventStoreDB test server of its
 * own (backed by a fresh store in its data folder, so every spec starts on an empty log as it does
 * embedded), and its read models go to a fresh database of the shared MongoDB-compatible server
 * (FerretDB, or the MongoDB named by TEST_MONGODB_URL). `TEST_BACKENDS=mongodb` or `eventstoredb` takes
 * one of the two only.
 */

export type BackendEnv = { env: Record<string, string>; cleanup: () => Promise<void> };

const chosen = (): { events: boolean; readModels: boolean } => {
  const value = process.env.TEST_BACKENDS ?? 'embedded';
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

export const testBackendEnv = async (dataDir: string): Promise<BackendEnv> => {
  const { events, readModels } = chosen();
  const env: Record<string, string> = {};
  const cleanups: (() => Promise<void>)[] = [];
  if (events) {
    const server = await startEsdbTestServer({ dataDir: path.join(dataDir, 'eventstoredb') });
    env.EVENTSTORE_URL = server.url;
    cleanups.push(() => server.stop());
  }
  if (readModels) {
    const mongo = await mongoTestEnv();
    env.MONGODB_URL = mongo.env.MONGODB_URL;
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
