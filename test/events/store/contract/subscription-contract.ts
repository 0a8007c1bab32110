import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../../../src/events/store/event-store.ts';
import { collect, ids, newEvent, newEvents, positionsStrictlyIncrease, uniqueCategory, uniqueStream, useStore, type OpenEventStore } from './fixtures.ts';

export function subscriptionContract(open: OpenEventStore): void {
  describe('subscribeToAll', () => {
    const store = useStore(open);

    const appendBatches = async (category: string, batches: number, size: number, between?: () => Promise<unknown>) => {
      const appended: string[] = [];
      for (let i = 0; i < batches; i += 1) {
        const events = newEvents(size, i % 2 === 0 ? 'Even' : 'Odd');
        await store().appendToStream(uniqueStream(category), events);
        appended.push(...ids(events));
        await between?.();
      }
      return appended;
    };

    it('when events are appended while it catches up, it delivers history then live events in position order, none missed or duplicated', async () => {
      const category = uniqueCategory();
      const mine = (event: RecordedEvent) => event.streamName.startsWith(`${category}-`);
      const start = await store().headPosition();
      const history = await appendBatches(category, 30, 10);
      const subscription = store().subscribeToAll({ fromPosition: start });
      const received: RecordedEvent[] = [];
      let appendsDuringCatchUp = 0;
      const timer = setTimeout(() => void subscription.unsubscribe(), 20_000);
      const consuming = (async () => {
        for await (const event of subscription) {
          if (!mine(event)) continue;
          received.push(event);
          if (received.length % 25 === 0) await nextTurn(); // a slow consumer: the writer gets in
          if (received.length === 600) break;
        }
      })();
      const live = await appendBatches(category, 30, 10, async () => {
        if (received.length < history.length) appendsDuringCatchUp += 1;
        await nextTurn();
      });
      await consuming;
      clearTimeout(timer);

      expect(appendsDuringCatchUp).toBeGreaterThan(0);
      expect(ids(received)).toEqual([...history, ...live]);
      expect(positionsStrictlyIncrease(received)).toBe(true);
    });

    it.each([
      { by: 'event types', filter: () => ({ eventTypes: ['Odd'] }), matches: (e: RecordedEvent) => e.type === 'Odd' },
      {
        by: 'stream prefixes',
        filter: (wanted: string) => ({ streamPrefixes: [wanted] }),
        matches: (e: RecordedEvent, wanted: string) => e.streamName === wanted,
      },
    ])('when filtered by $by, it delivers only matching events', async ({ filter, matches }) => {
      const category = uniqueCategory();
      const [wanted, other] = [`${category}-wanted`, `${category}-other`];
      const start = await store().headPosition();
      const write = async () => {
        for (const stream of [wanted, other, wanted, other]) {
          await store().appendToStream(stream, [newEvent('Even'), newEvent('Odd')]);
        }
      };
      await write();
      const subscription = store().subscribeToAll({ fromPosition: start, filter: filter(wanted) });
      const receiving = collect(subscription, 8, (e) => e.streamName.startsWith(`${category}-`));
      await write();
      const received = await receiving;
      const expected = [...(await store().readStream(wanted)), ...(await store().readStream(other))]
        .filter((e) => matches(e, wanted))
        .sort((x, y) => x.position - y.position);
      expect(expected).toHaveLength(8);
      expect(ids(received)).toEqual(ids(expected));
    });

    it('when subscribing from a position, it delivers the events strictly after it', async () => {
      const stream = uniqueStream();
      const mine = (event: RecordedEvent) => event.streamName === stream;
      await store().appendToStream(stream, newEvents(4));
      const recorded = await store().readStream(stream);
      const from = recorded[1]?.position ?? -1;
      const received = await collect(store().subscribeToAll({ fromPosition: from }), 2, mine);
      expect(ids(received)).toEqual(ids(recorded.slice(2)));
    });

    it('when nothing existed at subscribe time, caughtUp resolves and later events are delivered', async () => {
      const stream = uniqueStream();
      const subscription = store().subscribeToAll({ fromPosition: await store().headPosition() });
      const receiving = collect(subscription, 1, (e) => e.streamName === stream);
      await subscription.caughtUp;
      const event = newEvent();
      await store().appendToStream(stream, [event]);
      expect(ids(await receiving)).toEqual([event.id]);
    });

    it('when caughtUp resolves, every event that existed at subscribe time has been delivered', async () => {
      const category = uniqueCategory();
      const mine = (event: RecordedEvent) => event.streamName.startsWith(`${category}-`);
      const start = await store().headPosition();
      const history = await appendBatches(category, 10, 7);
      const subscription = store().subscribeToAll({ fromPosition: start });
      const received: RecordedEvent[] = [];
      const consuming = (async () => {
        for await (const event of subscription) if (mine(event)) received.push(event);
      })();
      await subscription.caughtUp;
      expect(ids(received)).toEqual(history);
      await subscription.unsubscribe();
      await consuming;
    });

    it('when unsubscribed while waiting for live events, the iteration ends', async () => {
      const subscription = store().subscribeToAll({ fromPosition: await store().headPosition() });
      let delivered = 0;
      const consuming = (async () => {
        for await (const _ of subscription) delivered += 1;
        return 'ended';
      })();
      await subscription.caughtUp;
      await subscription.unsubscribe();
      expect(await consuming).toBe('ended');
      await store().appendToStream(uniqueStream(), [newEvent()]);
      expect(await subscription[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
      expect(delivered).toBe(0);
    });

    it('when the consumer breaks out of the loop, the subscription stops', async () => {
      const stream = uniqueStream();
      const start = await store().headPosition();
      await store().appendToStream(stream, newEvents(3));
      const subscription = store().subscribeToAll({ fromPosition: start });
      for await (const event of subscription) {
        if (event.streamName === stream) break;
      }
      await store().appendToStream(stream, newEvents(2));
      expect(await subscription[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
    });
  });
}
