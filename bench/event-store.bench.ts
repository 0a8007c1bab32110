/**
 * Appends per second of the embedded event store, on a fresh temporary file per case: one append at a
 * time, then 16 and 64 appends in flight, as concurrent commands have. Every in-flight chain appends
 * one event at a time to a stream of its own with the exact expected revision, like the command
 * handler does. The latency column is the time from the call to the acknowledgement.
 *
 * Usage: npx tsx bench/event-store.bench.ts [folder for the files] [seconds per case]
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore, ExpectedRevision, NewEvent } from '../src/events/store/event-store.ts';
import { openSqliteEventStore } from '../src/events/store/sqlite-event-store.ts';

const folder = process.argv[2] ?? tmpdir();
const seconds = Number(process.argv[3] ?? 5);

const newEvent = (): NewEvent => ({
  id: randomUUID(),
  type: 'BenchmarkTicked',
  data: { orderId: 123_456, lines: [{ sku: 'CANAPE-3P-GRIS', quantity: 1, unitPrice: 899.9 }], note: 'x'.repeat(200) },
  metadata: { actor: { kind: 'system' }, correlationId: randomUUID(), causationId: randomUUID(), occurredAt: new Date().toISOString() },
});

async function chain(store: EventStore, until: number, latencies: number[]): Promise<void> {
  const stream = `bench-${randomUUID()}`;
  let expected: ExpectedRevision = 'no_stream';
  while (performance.now() < until) {
    const started = performance.now();
    const result = await store.appendToStream(stream, [newEvent()], { expectedRevision: expected });
    latencies.push(performance.now() - started);
    expected = result.nextExpectedRevision;
  }
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;

async function run(inFlight: number): Promise<string> {
  const dir = await mkdtemp(join(folder, 'event-store-bench-'));
  const store = openSqliteEventStore({ file: join(dir, 'events.sqlite') });
  try {
    await chain(store, performance.now() + 200, []); // warm-up: statements, file growth
    const latencies: number[] = [];
    const started = performance.now();
    const until = started + seconds * 1_000;
    await Promise.all(Array.from({ length: inFlight }, () => chain(store, until, latencies)));
    const elapsed = (performance.now() - started) / 1_000;
    const sorted = latencies.sort((a, b) => a - b);
    const rate = Math.round(latencies.length / elapsed);
    const label = inFlight === 1 ? 'sequential' : `${inFlight} in flight`;
    return `${label.padEnd(14)} ${String(rate).padStart(7)} appends/s   latency p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`;
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

console.log(`Event store appends, files in ${folder}, ${seconds} s per case`);
for (const inFlight of [1, 16, 64]) console.log(await run(inFlight));
