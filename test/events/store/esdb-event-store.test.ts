import { afterAll, beforeAll } from 'vitest';
import { openEsdbEventStore } from '../../../src/events/store/esdb/esdb-event-store.ts';
import { startEsdbTestServer, type EsdbTestServer } from '../../support/esdb-server/server.ts';
import { eventStoreContract } from './event-store-contract.ts';

/**
 * The event-store contract on the EventStoreDB adapter: against the gRPC test server by default, or
 * against the real EventStoreDB named by TEST_EVENTSTORE_URL (e.g. `esdb://localhost:2113?tls=false`);
 * the cases only use streams of their own, so a long-lived server will do.
 */
const realServerUrl = process.env.TEST_EVENTSTORE_URL;
let server: EsdbTestServer | undefined;

beforeAll(async () => {
  if (realServerUrl === undefined) server = await startEsdbTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const url = (): string => realServerUrl ?? server?.url ?? 'the test server starts in beforeAll';

eventStoreContract(realServerUrl === undefined ? 'EventStoreDB adapter on the test server' : 'EventStoreDB adapter on TEST_EVENTSTORE_URL', async () => {
  const store = openEsdbEventStore({ url: url() });
  return { store, cleanup: () => store.close() };
});
