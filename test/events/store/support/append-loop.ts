/**
 * A writer process for the SQLite store specs: appends batches of 1 to 3 events and prints each event
 * id on stdout once `appendToStream` has resolved, i.e. once the store acknowledged it. Runs until
 * killed, or until it has written `--count` events. Other writers may append to the same streams: on
 * a revision conflict it retries after the actual revision.
 *
 * With `--in-flight N` (default 1), N chains of appends run concurrently, chain i on the stream
 * `<stream>-<i>`, so that their appends share commits; with one chain it writes `<stream>` itself.
 *
 * Usage: node --import tsx append-loop.ts <file> <stream> [--count N] [--in-flight N]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { WrongExpectedVersionError, type ExpectedRevision, type NewEvent } from '../../../../src/events/store/event-store.ts';
import { openSqliteEventStore } from '../../../../src/events/store/sqlite-event-store.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { count: { type: 'string' }, 'in-flight': { type: 'string' } },
});
const [file, stream] = positionals;
if (file === undefined || stream === undefined) throw new Error('Usage: append-loop.ts <file> <stream> [--count N] [--in-flight N]');
const count = values.count === undefined ? Infinity : Number(values.count);
const inFlight = Number(values['in-flight'] ?? 1);

const store = openSqliteEventStore({ file });

const batchOf = (size: number): NewEvent[] =>
  Array.from({ length: size }, () => ({
    id: randomUUID(),
    type: 'LoopTicked',
    data: { pid: process.pid },
    metadata: { actor: { kind: 'system' }, correlationId: randomUUID(), causationId: randomUUID(), occurredAt: new Date().toISOString() },
  }));

// Events of appends in flight or acknowledged, over all chains: the chains stop at `count`.
let reserved = 0;

async function chain(streamName: string): Promise<void> {
  const [last] = await store.readStream(streamName, { direction: 'backwards', maxCount: 1 });
  let expected: ExpectedRevision = last?.revision ?? 'no_stream';
  for (let turn = 0; reserved < count; turn += 1) {
    const batch = batchOf(Math.min(1 + (turn % 3), count - reserved));
    reserved += batch.length;
    try {
      const result = await store.appendToStream(streamName, batch, { expectedRevision: expected });
      expected = result.nextExpectedRevision;
      process.stdout.write(`${batch.map((event) => event.id).join('\n')}\n`);
    } catch (error) {
      reserved -= batch.length;
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      expected = error.actual;
    }
  }
}

const streams = inFlight === 1 ? [stream] : Array.from({ length: inFlight }, (_, i) => `${stream}-${i}`);
await Promise.all(streams.map(chain));
await store.close();
