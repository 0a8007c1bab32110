import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventStoreUnavailableError, InvalidEventStoreRequestError, WrongExpectedVersionError, type NewEvent } from '../../../src/events/store/event-store.ts';
import { openSqliteEventStore, type SqliteEventStore, type SqliteEventStoreOptions } from '../../../src/events/store/sqlite-event-store.ts';
import { ids, newEvent, newEvents, positionsStrictlyIncrease, uniqueCategory, uniqueStream } from './contract/fixtures.ts';
import { tempStoreFile } from './support/temp-store-file.ts';

/**
 * Appends issued in the same turn of the event loop are committed together, in one transaction. These
 * cases issue them without awaiting in between, so that they share a group, and check that the
 * outcome is the one of the same appends made one after the other, in the order they were issued.
 */
describe('SQLite event store, group commit', () => {
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

  const eventsOf = (store: SqliteEventStore, category: string) => store.readAll({ filter: { streamPrefixes: [`${category}-`] } });

  it('when 200 appends to different streams are in flight, all land in the order issued, each with contiguous positions', async () => {
    const store = open();
    const category = uniqueCategory();
    const appends = Array.from({ length: 200 }, (_, i) => ({ stream: uniqueStream(category), events: newEvents(1 + (i % 3)) }));
    const results = await Promise.all(appends.map(({ stream, events }) => store.appendToStream(stream, events, { expectedRevision: 'no_stream' })));

    const recorded = await eventsOf(store, category);
    expect(ids(recorded)).toEqual(appends.flatMap(({ events }) => ids(events)));
    expect(positionsStrictlyIncrease(recorded)).toBe(true);
    appends.forEach(({ stream, events }, i) => {
      const last = results[i]?.position ?? Number.NaN;
      const positions = recorded.filter((event) => event.streamName === stream).map((event) => event.position);
      expect(positions).toEqual(events.map((_, index) => last - events.length + 1 + index));
    });
  });

  it('when an append of a group fails (wrong expected revision, invalid request), it writes nothing and the others commit', async () => {
    const store = open();
    const [stream, before, after] = [uniqueStream(), uniqueStream(), uniqueStream()];
    const existing = newEvents(2);
    await store.appendToStream(stream, existing);
    const [wrong, right, invalid] = [newEvents(2), newEvents(2), [{ ...newEvent(), type: '' }]];

    const outcomes = await Promise.allSettled([
      store.appendToStream(before, [newEvent()]),
      store.appendToStream(stream, wrong, { expectedRevision: 0 }),
      store.appendToStream(stream, invalid, { expectedRevision: 1 }),
      store.appendToStream(stream, right, { expectedRevision: 1 }),
      store.appendToStream(after, [newEvent()]),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
    const reasons = outcomes.map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as unknown) : undefined));
    expect(reasons[1]).toBeInstanceOf(WrongExpectedVersionError);
    expect(reasons[1]).toMatchObject({ expected: 0, actual: 1 });
    expect(reasons[2]).toBeInstanceOf(InvalidEventStoreRequestError);
    expect(outcomes[3]).toMatchObject({ value: { nextExpectedRevision: 3 } });

    expect(ids(await store.readStream(stream))).toEqual(ids([...existing, ...right]));
    expect(await store.readStream(before)).toHaveLength(1);
    expect(await store.readStream(after)).toHaveLength(1);
    const all = new Set(ids(await store.readAll()));
    expect([...wrong, ...invalid].filter((event) => all.has(event.id))).toEqual([]);
  });

  it('when appends to one stream are issued together with the revisions each leaves for the next, all succeed in order', async () => {
    const store = open();
    const stream = uniqueStream();
    const batches = [1, 2, 3, 1, 2, 3, 1, 2, 3, 1].map((size) => newEvents(size));
    let last = -1;
    const appends = batches.map((events) => {
      const append = store.appendToStream(stream, events, { expectedRevision: last === -1 ? 'no_stream' : last });
      last += events.length;
      return append;
    });

    const results = await Promise.all(appends);
    expect(results.map((result) => result.nextExpectedRevision)).toEqual([0, 2, 5, 6, 8, 11, 12, 14, 17, 18]);
    const recorded = await store.readStream(stream);
    expect(ids(recorded)).toEqual(batches.flatMap(ids));
    expect(recorded.map((event) => event.revision)).toEqual(recorded.map((_, index) => index));
  });

  it('when 30 appends with the same expected revision share a group, the first issued wins and the 29 others fail', async () => {
    const store = open();
    const stream = uniqueStream();
    await store.appendToStream(stream, newEvents(2));
    const batches = Array.from({ length: 30 }, () => newEvents(2));
    const outcomes = await Promise.allSettled(batches.map((events) => store.appendToStream(stream, events, { expectedRevision: 1 })));

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', ...Array<string>(29).fill('rejected')]);
    const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    expect(failures.every((error) => error instanceof WrongExpectedVersionError && error.actual === 3)).toBe(true);
    expect(ids(await store.readStream(stream)).slice(2)).toEqual(ids(batches[0] ?? []));
  });

  it('when a batch is re-sent in the same group as its first append, it is recorded once and both get the same result', async () => {
    const store = open();
    const stream = uniqueStream();
    const batch = newEvents(2);
    const next = newEvent();

    const [first, again, following] = await Promise.all([
      store.appendToStream(stream, batch, { expectedRevision: 'no_stream' }),
      store.appendToStream(stream, batch, { expectedRevision: 'no_stream' }),
      store.appendToStream(stream, [next], { expectedRevision: 1 }),
    ]);
    expect(again).toEqual(first);
    expect(following.nextExpectedRevision).toBe(2);
    expect(ids(await store.readStream(stream))).toEqual(ids([...batch, next]));
  });

  const bulky = (): NewEvent[] => [newEvent('ThingHappened', { note: 'x'.repeat(1_000) })];

  it.each<[string, Omit<SqliteEventStoreOptions, 'file'>, number]>([
    ['10 appends', { maxAppendsPerCommit: 10 }, 10],
    ['3,000 bytes', { maxBytesPerCommit: 3_000 }, 2],
  ])('when more appends arrive together than one commit holds (%s), they commit in successive groups, in the order issued', async (_, options, groupSize) => {
    const store = open(options);
    const category = uniqueCategory();
    const appends = Array.from({ length: 25 }, () => ({ stream: uniqueStream(category), events: bulky() }));
    const pending = appends.map(({ stream, events }) => store.appendToStream(stream, events));

    // Reads see committed events only: nothing before the first commit, then one whole group.
    expect(await eventsOf(store, category)).toEqual([]);
    await pending[0];
    expect(ids(await eventsOf(store, category))).toEqual(appends.slice(0, groupSize).flatMap(({ events }) => ids(events)));
    await Promise.all(pending);
    expect(ids(await eventsOf(store, category))).toEqual(appends.flatMap(({ events }) => ids(events)));
  });

  it('when the file stays locked by another writer past the busy timeout, every append of the group fails unavailable and none is written', async () => {
    const store = open({ busyTimeoutMs: 50 });
    const streams = [uniqueStream(), uniqueStream(), uniqueStream()];
    const locker = new Database(file);
    locker.exec('BEGIN IMMEDIATE');
    let outcomes: PromiseSettledResult<unknown>[];
    try {
      outcomes = await Promise.allSettled(streams.map((stream) => store.appendToStream(stream, [newEvent()])));
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }

    expect(outcomes.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof EventStoreUnavailableError)).toBe(true);
    for (const stream of streams) expect(await store.readStream(stream)).toEqual([]);
    expect((await store.appendToStream(streams[0]!, [newEvent()], { expectedRevision: 'no_stream' })).nextExpectedRevision).toBe(0);
  });

  it('when closed with appends pending, it commits them before closing, then refuses new appends', async () => {
    const store = open();
    const stream = uniqueStream();
    const events = newEvents(3);
    const pending = [
      store.appendToStream(stream, events.slice(0, 1), { expectedRevision: 'no_stream' }),
      store.appendToStream(stream, events.slice(1), { expectedRevision: 0 }),
    ];
    await store.close();

    expect((await Promise.all(pending)).map((result) => result.nextExpectedRevision)).toEqual([0, 2]);
    await expect(store.appendToStream(stream, [newEvent()])).rejects.toBeInstanceOf(EventStoreUnavailableError);
    expect(ids(await open().readStream(stream))).toEqual(ids(events));
  });
});
