import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openEsdbEventStore } from '../../../src/events/store/esdb/esdb-event-store.ts';
import type { EventStore } from '../../../src/events/store/event-store.ts';
import { namespacedEventStore } from '../../../src/events/store/namespaced-event-store.ts';
import { openSqliteEventStore } from '../../../src/events/store/sqlite-event-store.ts';
import { startEsdbTestServer, type EsdbTestServer } from '../../support/esdb-server/server.ts';
import { expectWrongVersion, newEvent, newEvents, uniqueStream } from './contract/fixtures.ts';
import { eventStoreContract } from './event-store-contract.ts';
import { tempStoreFile } from './support/temp-store-file.ts';

/**
 * A namespace in a shared store (EVENTSTORE_NAMESPACE): the whole event-store contract holds inside it
 * while a neighbour keeps writing events of the same types, to streams of the same names, outside it.
 */

/** Appends an event of the contract's own type every few milliseconds, to `stream` in each of `stores`, until stopped. */
const neighbour = (stores: readonly EventStore[], stream: string): { stop: () => Promise<void> } => {
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const store of stores) await store.appendToStream(stream, [newEvent()]);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
};

/** The store a namespace lives in, and the same store as the neighbour sees it (bare, and in another namespace). */
const sharedWithNeighbour = (store: EventStore, close: () => Promise<void>) => {
  const noise = neighbour([store, namespacedEventStore(store, 'other')], uniqueStream());
  return {
    store: namespacedEventStore(store, 'ours'),
    cleanup: async () => {
      await noise.stop();
      await close();
    },
  };
};

eventStoreContract('namespace in the SQLite event store, beside a busy neighbour', async () => {
  const { file, remove } = await tempStoreFile();
  const store = openSqliteEventStore({ file, pageSize: 32 });
  return sharedWithNeighbour(store, async () => {
    await store.close();
    await remove();
  });
});

let server: EsdbTestServer | undefined;
beforeAll(async () => {
  server = await startEsdbTestServer();
});
afterAll(async () => {
  await server?.stop();
});

eventStoreContract('namespace in EventStoreDB (test server), beside a busy neighbour', async () => {
  const store = openEsdbEventStore({ url: server!.url });
  return sharedWithNeighbour(store, () => store.close());
});

describe('an event-store namespace', () => {
  let bare: EventStore;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    const temp = await tempStoreFile();
    bare = openSqliteEventStore({ file: temp.file });
    remove = temp.remove;
  });
  afterEach(async () => {
    await bare.close();
    await remove();
  });

  it('when it appends, the shared store holds the stream under the namespace, and the namespace reads it under its own name', async () => {
    const ours = namespacedEventStore(bare, 'staging');
    const stream = uniqueStream();

    await ours.appendToStream(stream, newEvents(2));

    expect((await bare.readStream(`staging.${stream}`)).map((event) => event.revision)).toEqual([0, 1]);
    expect(await bare.readStream(stream)).toEqual([]);
    expect((await ours.readStream(stream)).map((event) => event.streamName)).toEqual([stream, stream]);
    expect((await ours.readAll()).map((event) => event.streamName)).toEqual([stream, stream]);
  });

  it('when two namespaces use the same stream name, each has its own revisions', async () => {
    const [first, second] = [namespacedEventStore(bare, 'first'), namespacedEventStore(bare, 'second')];
    const stream = uniqueStream();

    await first.appendToStream(stream, newEvents(3), { expectedRevision: 'no_stream' });
    await second.appendToStream(stream, newEvents(1), { expectedRevision: 'no_stream' });

    await expectWrongVersion(second.appendToStream(stream, [newEvent()], { expectedRevision: 2 }), 0);
    expect(await first.readStream(stream)).toHaveLength(3);
  });

  it('when events of the wanted type lie beyond many of other types, a filtered read finds them; other namespaces never show', async () => {
    const ours = namespacedEventStore(bare, 'ours');
    await ours.appendToStream(uniqueStream(), newEvents(600, 'SomethingElse'));
    await namespacedEventStore(bare, 'other').appendToStream(uniqueStream(), newEvents(5, 'Wanted'));
    await bare.appendToStream(uniqueStream(), newEvents(5, 'Wanted'));
    const stream = uniqueStream();
    await ours.appendToStream(stream, newEvents(2, 'Wanted'));

    const found = await ours.readAll({ filter: { eventTypes: ['Wanted'] } });
    expect(found.map((event) => [event.streamName, event.revision])).toEqual([
      [stream, 0],
      [stream, 1],
    ]);
    expect(await ours.readAll({ filter: { eventTypes: ['Wanted'] }, maxCount: 1 })).toHaveLength(1);
    expect(await ours.readAll({ direction: 'backwards', filter: { eventTypes: ['SomethingElse'] }, maxCount: 1 })).toHaveLength(1);
  });

  it("the head is the position of the namespace's last event, not of the store's", async () => {
    const ours = namespacedEventStore(bare, 'ours');
    expect(await ours.headPosition()).toBe(-1);

    const { position } = await ours.appendToStream(uniqueStream(), newEvents(1));
    await bare.appendToStream(uniqueStream(), newEvents(3));

    expect(await ours.headPosition()).toBe(position);
    expect(await bare.headPosition()).toBeGreaterThan(position);
  });

  it('a namespace other than letters, digits and _ is refused', () => {
    for (const wrong of ['', 'a.b', '$system', 'with space']) expect(() => namespacedEventStore(bare, wrong)).toThrow(/namespace/);
  });
});
