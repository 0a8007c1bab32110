import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventStoreUnavailableError, type EventStore, type RecordedEvent } from '../../../src/events/store/event-store.ts';
import { openEsdbEventStore } from '../../../src/events/store/esdb/esdb-event-store.ts';
import { startEsdbTestServer, type EsdbTestServer } from '../../support/esdb-server/server.ts';
import { collect, ids, newEvents, uniqueCategory, uniqueStream } from './contract/fixtures.ts';
import { retryWhileUnavailable } from './support/retry-unavailable.ts';

/** The EventStoreDB adapter when the server goes away: subscriptions resume, appends never count twice. */

let dataDir: string;
let server: EsdbTestServer;
let store: EventStore;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'esdb-faults-'));
  server = await startEsdbTestServer({ dataDir });
  store = openEsdbEventStore({ url: server.url });
});
afterEach(async () => {
  await store.close();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const appendBatches = async (category: string, batches: number, size = 3): Promise<string[]> => {
  const appended: string[] = [];
  for (let i = 0; i < batches; i += 1) {
    const events = newEvents(size);
    await retryWhileUnavailable(() => store.appendToStream(uniqueStream(category), events, { expectedRevision: 'no_stream' }));
    appended.push(...ids(events));
  }
  return appended;
};

describe('EventStoreDB adapter, faults', () => {
  it('when the server stops and restarts on the same port and data, a subscription resumes with nothing missed and nothing twice', async () => {
    const category = uniqueCategory();
    const before = await appendBatches(category, 5);
    const subscription = store.subscribeToAll({ filter: { streamPrefixes: [`${category}-`] } });
    const receiving = collect(subscription, 45, undefined, 30_000);
    await subscription.caughtUp;
    const live = await appendBatches(category, 5);
    await server.stop();
    server = await startEsdbTestServer({ dataDir, port: server.port });
    const afterRestart = await appendBatches(category, 5);
    expect(ids(await receiving)).toEqual([...before, ...live, ...afterRestart]);
  });

  it('when every connection drops while a subscription catches up, it resumes from its last position', async () => {
    const category = uniqueCategory();
    // More than the adapter queues ahead of its consumer: the rest is still on the server when the connections drop.
    const history = await appendBatches(category, 40, 25);
    const subscription = store.subscribeToAll({ filter: { streamPrefixes: [`${category}-`] } });
    const received: RecordedEvent[] = [];
    for await (const event of subscription) {
      received.push(event);
      if (received.length === 50) await server.dropConnections();
      if (received.length === 600) await server.dropConnections();
      if (received.length === history.length) break;
    }
    expect(ids(received)).toEqual(history);
  });

  it.each(['before-write', 'after-write'] as const)(
    'when the connection is lost during an append (%s), it fails with EventStoreUnavailableError and a retry with the same ids records them once',
    async (fault) => {
      const stream = uniqueStream();
      await store.appendToStream(stream, newEvents(1));
      const batch = newEvents(3);
      server.failNextAppend(fault);
      await expect(store.appendToStream(stream, batch, { expectedRevision: 0 })).rejects.toBeInstanceOf(EventStoreUnavailableError);
      const afterFailure = await retryWhileUnavailable(() => store.readStream(stream));
      expect(afterFailure).toHaveLength(fault === 'after-write' ? 4 : 1);
      const retried = await retryWhileUnavailable(() => store.appendToStream(stream, batch, { expectedRevision: 0 }));
      const recorded = await store.readStream(stream);
      expect(retried.nextExpectedRevision).toBe(3);
      expect(ids(recorded.slice(1))).toEqual(ids(batch));
      expect(recorded).toHaveLength(4);
    },
  );
});
