import { performance } from 'node:perf_hooks';
import type { EventStore } from '../src/events/store/event-store.ts';
import { allProjections } from '../src/projections/all-projections.ts';
import type { ReadStore } from '../src/projections/read-store/read-store.ts';
import { rebuildReadModels } from '../src/projections/rebuild.ts';

/** Counts the events of the log, up to its head, that at least one projection reads. */
const eventsRead = async (eventStore: EventStore, eventTypes: readonly string[], head: number): Promise<number> => {
  let count = 0;
  let cursor: number | undefined;
  for (;;) {
    const page = await eventStore.readAll({ ...(cursor === undefined ? {} : { fromPosition: cursor }), filter: { eventTypes }, maxCount: 1000 });
    count += page.filter((event) => event.position <= head).length;
    const last = page.at(-1);
    if (last === undefined || page.length < 1000 || last.position >= head) return count;
    cursor = last.position;
  }
};

/**
 * Projection throughput into a read store: every projection of the service replays the (seeded) log
 * into `readStore`, as `projections rebuild` does, one event at a time in log order. Run it on the
 * embedded read store and on MongoDB with the same log to compare them. `events` counts the log events
 * replayed (each applied by every projection reading it); the read store's projected collections are
 * emptied first and hold the rebuilt read models afterwards.
 */
export async function measureProjection(readStore: ReadStore, eventStore: EventStore): Promise<{ events: number; seconds: number; eventsPerSecond: number }> {
  const projections = allProjections({ timezone: 'Europe/Paris' });
  const head = await eventStore.headPosition();
  const events = head < 0 ? 0 : await eventsRead(eventStore, [...new Set(projections.flatMap((projection) => projection.eventTypes))], head);
  const startedAt = performance.now();
  await rebuildReadModels({ eventStore, readStore, projections });
  const seconds = (performance.now() - startedAt) / 1000;
  return { events, seconds, eventsPerSecond: seconds > 0 ? events / seconds : 0 };
}
