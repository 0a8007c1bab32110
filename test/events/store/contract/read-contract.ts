import { describe, expect, it } from 'vitest';
import type { EventStore, RecordedEvent } from '../../../../src/events/store/event-store.ts';
import { ids, newEvent, newEvents, positionsStrictlyIncrease, uniqueCategory, uniqueStream, useStore, type OpenEventStore } from './fixtures.ts';

export function readContract(open: OpenEventStore): void {
  describe('readStream', () => {
    const store = useStore(open);

    const streamOfFive = async (): Promise<string> => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(5));
      return stream;
    };

    it('when read forwards, it returns the events as appended, in revision order', async () => {
      const stream = uniqueStream();
      const event = newEvent('OrderPlaced', { orderId: 'o-1', lines: [{ sku: 'A', qty: 2 }], note: null });
      const before = Date.now();
      await store().appendToStream(stream, [event, newEvent()]);
      const [first, second] = await store().readStream(stream);
      expect(first).toMatchObject({ ...event, streamName: stream, revision: 0 });
      expect(second?.revision).toBe(1);
      expect(Date.parse(first?.recordedAt ?? '')).toBeGreaterThanOrEqual(before - 1_000);
      expect(first?.recordedAt).toBe(new Date(Date.parse(first?.recordedAt ?? '')).toISOString());
    });

    it('when read backwards, it returns the events from the last revision down', async () => {
      const stream = await streamOfFive();
      const events = await store().readStream(stream, { direction: 'backwards' });
      expect(events.map((e) => e.revision)).toEqual([4, 3, 2, 1, 0]);
    });

    it('when read from a revision, that revision is included, in either direction', async () => {
      const stream = await streamOfFive();
      expect((await store().readStream(stream, { fromRevision: 2 })).map((e) => e.revision)).toEqual([2, 3, 4]);
      const backwards = await store().readStream(stream, { direction: 'backwards', fromRevision: 2 });
      expect(backwards.map((e) => e.revision)).toEqual([2, 1, 0]);
    });

    it('when given a maxCount, it returns at most that many events', async () => {
      const stream = await streamOfFive();
      expect((await store().readStream(stream, { fromRevision: 1, maxCount: 2 })).map((e) => e.revision)).toEqual([1, 2]);
      const last = await store().readStream(stream, { direction: 'backwards', maxCount: 1 });
      expect(last.map((e) => e.revision)).toEqual([4]);
    });

    it('when the stream does not exist, it returns an empty array', async () => {
      expect(await store().readStream(uniqueStream())).toEqual([]);
    });
  });

  describe('readAll and headPosition', () => {
    const store = useStore(open);

    /**
     * Appends to two fresh categories, alternating streams and event types. Reads are narrowed to
     * those categories: the log may hold other events, some written while the test runs.
     */
    const seed = async (s: EventStore) => {
      const [a, b] = [uniqueCategory(), uniqueCategory()];
      const start = await s.headPosition();
      for (const category of [a, b, a, b]) {
        await s.appendToStream(uniqueStream(category), [newEvent('Opened'), newEvent('Closed')]);
      }
      const ours = { streamPrefixes: [`${a}-`, `${b}-`] };
      const isOurs = (e: RecordedEvent) => e.streamName.startsWith(`${a}-`) || e.streamName.startsWith(`${b}-`);
      const mine = (await s.readAll({ fromPosition: start })).filter(isOurs);
      return { a, b, start, mine, ours, isOurs };
    };

    it('when read forwards after a position, it returns the events strictly after it, in position order', async () => {
      const { start, mine, isOurs } = await seed(store());
      expect(mine).toHaveLength(8);
      expect(mine.every((e) => e.position > start)).toBe(true);
      const after = mine[2]?.position ?? -1;
      const read = await store().readAll({ fromPosition: after });
      expect(read.every((e) => e.position > after)).toBe(true);
      expect(positionsStrictlyIncrease(read)).toBe(true);
      expect(ids(read.filter(isOurs))).toEqual(ids(mine.slice(3)));
    });

    it('when read backwards, it starts from the end, or strictly before a given position', async () => {
      const { mine, ours } = await seed(store());
      const last = await store().readAll({ direction: 'backwards', maxCount: 1, filter: ours });
      expect(ids(last)).toEqual(ids(mine.slice(-1)));
      const before = mine[5]?.position ?? -1;
      const read = await store().readAll({ direction: 'backwards', fromPosition: before, maxCount: 3, filter: ours });
      expect(ids(read)).toEqual(ids(mine.slice(2, 5).reverse()));
    });

    it('when given a maxCount, it returns at most that many events', async () => {
      const { start, mine, ours } = await seed(store());
      const read = await store().readAll({ fromPosition: start, maxCount: 3, filter: ours });
      expect(ids(read)).toEqual(ids(mine.slice(0, 3)));
    });

    it('when filtered by event type, it returns only events of those types', async () => {
      const { a, start, mine } = await seed(store());
      const read = await store().readAll({ fromPosition: start, filter: { eventTypes: ['Closed'] } });
      const ofA = read.filter((e) => e.streamName.startsWith(`${a}-`));
      expect(read.every((e) => e.type === 'Closed')).toBe(true);
      expect(ids(ofA)).toEqual(ids(mine.filter((e) => e.type === 'Closed' && e.streamName.startsWith(`${a}-`))));
    });

    it('when filtered by stream prefix, it returns only events of matching streams', async () => {
      const { b, start, mine } = await seed(store());
      const read = await store().readAll({ fromPosition: start, filter: { streamPrefixes: [`${b}-`] } });
      expect(ids(read)).toEqual(ids(mine.filter((e) => e.streamName.startsWith(`${b}-`))));
    });

    it('when events are appended, headPosition is the position of the last one', async () => {
      const result = await store().appendToStream(uniqueStream(), newEvents(2));
      expect(await store().headPosition()).toBe(result.position);
    });
  });
}
