import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { EventStore } from '../src/events/store/event-store.ts';
import { allProjections } from '../src/projections/all-projections.ts';
import { createProjectionEngine } from '../src/projections/engine/engine.ts';
import { routedReadStore } from '../src/projections/engine/generations.ts';
import type { ReadStore } from '../src/projections/read-store/read-store.ts';

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
 * Projection throughput into a read store: every projection of the service builds its read model from
 * the (seeded) log into `readStore`, emptied first, as a first start does: one reader, batches written
 * with their checkpoints. Run it on the embedded read store and on MongoDB with the same log to compare
 * them. `events` counts the log events replayed (each applied by every projection reading it).
 */
export async function measureProjection(readStore: ReadStore, eventStore: EventStore): Promise<{ events: number; seconds: number; eventsPerSecond: number }> {
  const projections = allProjections({ timezone: 'Europe/Paris' });
  const head = await eventStore.headPosition();
  const events = head < 0 ? 0 : await eventsRead(eventStore, [...new Set(projections.flatMap((projection) => projection.eventTypes))], head);
  await readStore.dropAll();
  const engine = createProjectionEngine({
    eventStore,
    readStore,
    routes: routedReadStore(readStore, projections),
    projections,
    lease: { owner: `bench-${randomUUID()}`, ttlMs: 60_000 },
  });
  const startedAt = performance.now();
  await engine.start();
  const seconds = (performance.now() - startedAt) / 1000;
  await engine.stop();
  return { events, seconds, eventsPerSecond: seconds > 0 ? events / seconds : 0 };
}
