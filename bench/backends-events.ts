import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { EventStore, NewEvent } from '../src/events/store/event-store.ts';

export type AppendLoad = {
  /** Streams written, round-robin; each is appended with its exact expected revision. */
  streams: number;
  eventsPerAppend: number;
  /** Appends awaited at once (each on a stream of its own, so they never conflict). */
  inFlight: number;
  /** Events to append in all. */
  total: number;
};

const event = (index: number): NewEvent => ({
  id: randomUUID(),
  type: 'BenchmarkTicked',
  data: { index, note: 'a payload about the size of a sale line event' },
  metadata: { actor: { kind: 'system' }, correlationId: randomUUID(), causationId: randomUUID(), occurredAt: new Date().toISOString() },
});

/**
 * Append throughput through an event-store adapter: `inFlight` chains of appends, chain i writing
 * the streams i, i + inFlight, ... in turn, until `total` events are written. Run it on the embedded
 * store and on the EventStoreDB adapter with the same load to compare them.
 */
export async function measureAppends(store: EventStore, load: AppendLoad): Promise<{ eventsPerSecond: number }> {
  const run = randomUUID().slice(0, 8);
  // A multiple of inFlight: chain i only ever writes streams i (mod inFlight), so chains never race on a stream.
  const streamCount = Math.ceil(Math.max(load.streams, load.inFlight) / load.inFlight) * load.inFlight;
  const streams = Array.from({ length: streamCount }, (_, i) => `bench${run}-${i}`);
  const revisions = new Map<string, number>();
  let written = 0;

  const chain = async (first: number): Promise<void> => {
    for (let turn = 0; ; turn += 1) {
      const count = Math.min(load.eventsPerAppend, load.total - written);
      if (count <= 0) return;
      written += count;
      const stream = streams[(first + turn * load.inFlight) % streams.length]!;
      const expected = revisions.get(stream);
      const batch = Array.from({ length: count }, (_, i) => event(written - count + i));
      const result = await store.appendToStream(stream, batch, { expectedRevision: expected ?? 'no_stream' });
      revisions.set(stream, result.nextExpectedRevision);
    }
  };

  const started = performance.now();
  await Promise.all(Array.from({ length: load.inFlight }, (_, i) => chain(i)));
  const seconds = (performance.now() - started) / 1000;
  return { eventsPerSecond: Math.round(load.total / seconds) };
}
