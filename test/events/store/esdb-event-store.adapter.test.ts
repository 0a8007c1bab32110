import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../../src/events/command-context.ts';
import { createIdAllocator } from '../../../src/events/ids/id-allocator.ts';
import type { EventFilter, EventStore, RecordedEvent } from '../../../src/events/store/event-store.ts';
import { openEsdbEventStore } from '../../../src/events/store/esdb/esdb-event-store.ts';
import { startEsdbTestServer, type EsdbTestServer } from '../../support/esdb-server/server.ts';
import { collect, ids, newEvent, newEvents, uniqueCategory, uniqueStream } from './contract/fixtures.ts';

/** What the EventStoreDB adapter adds to the contract: system events kept out, ID allocation, connection strings. */

let server: EsdbTestServer;
const opened: EventStore[] = [];
const open = (url = server.url): EventStore => {
  const store = openEsdbEventStore({ url });
  opened.push(store);
  return store;
};

beforeAll(async () => {
  server = await startEsdbTestServer();
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});
afterAll(async () => {
  await server.stop();
});

const isSystem = (event: RecordedEvent) => event.type.startsWith('$') || event.streamName.startsWith('$');

describe('EventStoreDB adapter', () => {
  it.each<[string, EventFilter | undefined]>([
    ['no filter', undefined],
    ['an event-type filter', { eventTypes: ['ThingHappened', '$statsCollection'] }],
    ['a stream-prefix filter', { streamPrefixes: ['$', 'test'] }],
  ])('when the log holds system events, a subscription with %s never delivers them', async (_, filter) => {
    const store = open();
    const stream = uniqueStream();
    await store.appendToStream(stream, newEvents(2));
    await server.appendSystemEvent();
    const subscription = store.subscribeToAll({ ...(filter && { filter }) });
    const receiving = collect(subscription, 4, (e) => e.streamName === stream || isSystem(e));
    await subscription.caughtUp;
    await server.appendSystemEvent();
    await store.appendToStream(stream, newEvents(2));
    const received = await receiving;
    expect(received.filter(isSystem)).toEqual([]);
    expect(received.map((e) => e.revision)).toEqual([0, 1, 2, 3]);
  });

  it('when the log ends with system events, headPosition and readAll ignore them', async () => {
    const store = open();
    const { position } = await store.appendToStream(uniqueStream(), newEvents(2));
    await server.appendSystemEvent();
    expect(await store.headPosition()).toBe(position);
    const [last] = await store.readAll({ direction: 'backwards', maxCount: 1 });
    expect(last?.position).toBe(position);
    const all = await store.readAll();
    expect(all.filter(isSystem)).toEqual([]);
    expect(all.at(-1)?.position).toBe(position);
  });

  it('when two service instances allocate IDs at the same time, no ID is handed out twice', async () => {
    const allocators = [open(), open()].map((store) => createIdAllocator(store, systemContext(randomUUID()), { blockSize: 3 }));
    const allocated = await Promise.all(allocators.flatMap((allocator) => Array.from({ length: 20 }, () => allocator.next('refund', 2))));
    const flat = allocated.flat();
    expect(flat).toHaveLength(80);
    expect(new Set(flat).size).toBe(80);
  });

  it('when given a kurrentdb:// connection string, it connects as with esdb://', async () => {
    const store = open(server.url.replace('esdb://', 'kurrentdb://'));
    const stream = uniqueStream(uniqueCategory());
    const event = newEvent();
    await store.appendToStream(stream, [event]);
    expect(ids(await store.readStream(stream))).toEqual([event.id]);
  });
});
