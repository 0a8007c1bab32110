import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  EventStoreUnavailableError,
  InvalidEventStoreRequestError,
  WrongExpectedVersionError,
  type EventStore,
  type NewEvent,
} from '../../../src/events/store/event-store.ts';
import { openSqliteEventStore, type SqliteEventStore, type SqliteEventStoreOptions } from '../../../src/events/store/sqlite-event-store.ts';
import { collect, expectWrongVersion, newEvent, newEvents, uniqueStream } from './contract/fixtures.ts';
import { eventStoreContract } from './event-store-contract.ts';
import { tempStoreFile } from './support/temp-store-file.ts';

eventStoreContract('SQLite event store', async () => {
  const { file, remove } = await tempStoreFile();
  // A small page makes the subscription cases cross page boundaries while catching up.
  const store = openSqliteEventStore({ file, pageSize: 32 });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await remove();
    },
  };
});

describe('SQLite event store', () => {
  let file: string;
  let remove: () => Promise<void>;
  const opened: SqliteEventStore[] = [];
  const open = (options: Omit<SqliteEventStoreOptions, 'file'> = {}): SqliteEventStore => {
    const store = openSqliteEventStore({ file, ...options });
    opened.push(store);
    return store;
  };

  beforeEach(async () => {
    ({ file, remove } = await tempStoreFile());
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    await remove();
  });

  it('when opened on a missing folder, it creates it, and the empty log has head position -1', async () => {
    const store = open();
    expect(existsSync(file)).toBe(true);
    expect(await store.headPosition()).toBe(-1);
    expect(await store.readAll()).toEqual([]);
  });

  it('when reopened, it still has every event', async () => {
    const stream = uniqueStream();
    const first = open();
    await first.appendToStream(stream, newEvents(3));
    const written = await first.readStream(stream);
    await first.close();
    expect(await open().readStream(stream)).toEqual(written);
  });

  it('when closed, every call fails with EventStoreUnavailableError, live subscriptions end and close can be repeated', async () => {
    const store = open();
    await store.appendToStream(uniqueStream(), [newEvent()]);
    const subscription = store.subscribeToAll();
    const consuming = collect(subscription, 2);
    await subscription.caughtUp;
    await store.close();
    await expect(consuming).rejects.toThrow('Received 1 of 2 events');
    await store.close();
    const calls: (() => Promise<unknown>)[] = [
      () => store.appendToStream(uniqueStream(), [newEvent()]),
      () => store.readStream(uniqueStream()),
      () => store.readAll(),
      () => store.headPosition(),
      async () => store.subscribeToAll(),
    ];
    for (const call of calls) await expect(call()).rejects.toBeInstanceOf(EventStoreUnavailableError);
  });

  const valid = newEvent();
  it.each<[string, (store: EventStore, stream: string) => Promise<unknown>]>([
    ['an empty stream name', (s) => s.appendToStream('', [newEvent()])],
    ['an event id that is not a UUID', (s, stream) => s.appendToStream(stream, [{ ...newEvent(), id: 'order-1' }])],
    ['an empty event type', (s, stream) => s.appendToStream(stream, [{ ...newEvent(), type: '' }])],
    ['data that is an array', (s, stream) => s.appendToStream(stream, [{ ...newEvent(), data: [] as unknown as NewEvent['data'] }])],
    ['metadata that is null', (s, stream) => s.appendToStream(stream, [{ ...newEvent(), metadata: null as unknown as NewEvent['metadata'] }])],
    ['an invalid event after valid ones', (s, stream) => s.appendToStream(stream, [newEvent(), { ...newEvent(), type: '' }])],
    ['the same id twice in a batch', (s, stream) => s.appendToStream(stream, [valid, { ...valid }])],
    ['a negative expected revision', (s, stream) => s.appendToStream(stream, [newEvent()], { expectedRevision: -1 })],
    ['a negative fromRevision', (s, stream) => s.readStream(stream, { fromRevision: -1 })],
    ['a zero maxCount', (s) => s.readAll({ maxCount: 0 })],
    ['an empty filter', (s) => s.readAll({ filter: { eventTypes: [] } })],
  ])('when given %s, it throws InvalidEventStoreRequestError and writes nothing', async (_, call) => {
    const store = open();
    const stream = uniqueStream();
    await store.appendToStream(stream, [newEvent()]);
    const head = await store.headPosition();
    await expect(call(store, stream)).rejects.toBeInstanceOf(InvalidEventStoreRequestError);
    expect(await store.headPosition()).toBe(head);
    expect(await store.readStream(stream)).toHaveLength(1);
  });

  // Stricter than EventStoreDB, hence not in the shared contract: EventStoreDB only recognises a
  // re-sent batch where its expected revision would put it, and otherwise writes the ids again (at
  // the current revision) or reports a plain conflict. The embedded store never records an id twice
  // in a stream, so a retry that raced with other writers cannot duplicate an event.
  it('when recorded ids are re-sent at a different expected revision, it fails and writes nothing', async () => {
    const store = open();
    const stream = uniqueStream();
    const batch = newEvents(2);
    await store.appendToStream(stream, [newEvent()]);
    await store.appendToStream(stream, batch, { expectedRevision: 0 });
    await expectWrongVersion(store.appendToStream(stream, batch, { expectedRevision: 2 }), 2);
    await expectWrongVersion(store.appendToStream(stream, batch, { expectedRevision: 'no_stream' }), 2);
    expect(await store.readStream(stream)).toHaveLength(3);
  });

  it('when a batch only partly overlaps recorded events, it fails and writes nothing', async () => {
    const store = open();
    const stream = uniqueStream();
    const batch = newEvents(2);
    await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
    const longer = [...batch, newEvent()];
    await expectWrongVersion(store.appendToStream(stream, longer, { expectedRevision: 'no_stream' }), 1);
    await expectWrongVersion(store.appendToStream(stream, longer, { expectedRevision: 'any' }), 1);
    await expectWrongVersion(store.appendToStream(stream, [newEvent(), ...batch], { expectedRevision: 'any' }), 1);
    expect((await store.readStream(stream)).map((e) => e.id)).toEqual(batch.map((e) => e.id));
  });

  it('when 30 appends race on one stream with the same expected revision, exactly one succeeds', async () => {
    // Two connections on the file, as two processes would have.
    const stores = [open(), open()];
    const stream = uniqueStream();
    await stores[0]?.appendToStream(stream, newEvents(2));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => stores[i % 2]!.appendToStream(stream, newEvents(2), { expectedRevision: 1 })),
    );
    const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(failures).toHaveLength(29);
    expect(failures.every((error) => error instanceof WrongExpectedVersionError && error.actual === 3)).toBe(true);
    expect(await stores[1]?.readStream(stream)).toHaveLength(4);
  });

  it('when this store appends, a live subscription gets the events at once, not at the next poll', async () => {
    const store = open({ pollIntervalMs: 60_000 });
    const stream = uniqueStream();
    const subscription = store.subscribeToAll();
    const receiving = collect(subscription, 1, (e) => e.streamName === stream, 5_000);
    await subscription.caughtUp;
    const event = newEvent();
    await store.appendToStream(stream, [event]);
    expect((await receiving).map((e) => e.id)).toEqual([event.id]);
  });

  it('when a second store on the same file appends, the first sees it in reads and in a live subscription', async () => {
    const [mine, other] = [open(), open()];
    const stream = uniqueStream();
    const subscription = mine.subscribeToAll();
    const receiving = collect(subscription, 3, (e) => e.streamName === stream, 5_000);
    await subscription.caughtUp;
    const events = newEvents(3);
    await other.appendToStream(stream, events.slice(0, 1));
    await other.appendToStream(stream, events.slice(1));
    expect((await receiving).map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect((await mine.readStream(stream)).map((e) => e.id)).toEqual(events.map((e) => e.id));
  });

  it('when the history fills its pages exactly, caughtUp resolves once the last page is delivered (no later event needed)', async () => {
    const store = open({ pageSize: 10 });
    const history = newEvents(20);
    await store.appendToStream(uniqueStream(), history);
    const subscription = store.subscribeToAll();
    const received: string[] = [];
    const consuming = (async () => {
      for await (const event of subscription) received.push(event.id);
    })();
    const outcome = await Promise.race([
      subscription.caughtUp.then(() => 'caught up'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3_000)),
    ]);
    expect(outcome).toBe('caught up');
    expect(received).toEqual(history.map((event) => event.id));
    await subscription.unsubscribe();
    await consuming;
  });

  it('when the log holds 20,000 events, readAll pages and a subscription go through all of them in order', async () => {
    const store = open();
    for (let i = 0; i < 20; i += 1) await store.appendToStream(uniqueStream(), newEvents(1_000));
    let [count, last, ordered] = [0, -1, true];
    for (let page = await store.readAll({ maxCount: 5_000 }); page.length > 0 && count <= 20_000;) {
      for (const event of page) {
        ordered &&= event.position > last;
        last = event.position;
      }
      count += page.length;
      page = await store.readAll({ fromPosition: last, maxCount: 5_000 });
    }
    expect(count).toBe(20_000);
    expect(ordered).toBe(true);
    const delivered = await collect(store.subscribeToAll(), 20_000);
    expect(delivered.at(-1)?.position).toBe(last);
  });

  it('when a filter passes most events and another few, paged reads and subscriptions give exactly the events of their types, in order', async () => {
    // 12,000 events: 4,000 Common; 4,000 with one Rare in 50; 4,000 Rare. Each filter crosses windows
    // where it passes most events and windows where it passes few.
    const store = open();
    const types = Array.from({ length: 12_000 }, (_, i) => (i < 4_000 ? 'Common' : i < 8_000 ? (i % 50 === 0 ? 'Rare' : 'Common') : 'Rare'));
    for (let from = 0; from < types.length; from += 1_000) {
      await store.appendToStream(
        uniqueStream(),
        types.slice(from, from + 1_000).map((type) => newEvent(type)),
      );
    }
    const all = await store.readAll();
    for (const type of ['Common', 'Rare']) {
      const expected = all.filter((event) => event.type === type).map((event) => event.position);
      const paged: number[] = [];
      for (let page = await store.readAll({ maxCount: 500, filter: { eventTypes: [type] } }); page.length > 0;) {
        paged.push(...page.map((event) => event.position));
        page = await store.readAll({ fromPosition: paged.at(-1), maxCount: 500, filter: { eventTypes: [type] } });
      }
      expect(paged, type).toEqual(expected);
      expect(
        (await store.readAll({ filter: { eventTypes: [type] } })).map((event) => event.position),
        type,
      ).toEqual(expected);
      const delivered = await collect(store.subscribeToAll({ filter: { eventTypes: [type] } }), expected.length);
      expect(
        delivered.map((event) => event.position),
        type,
      ).toEqual(expected);
    }
  });
});
