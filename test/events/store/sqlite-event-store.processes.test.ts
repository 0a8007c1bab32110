import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../../src/events/store/event-store.ts';
import { openSqliteEventStore } from '../../../src/events/store/sqlite-event-store.ts';
import { startWriter, type WriterProcess } from './support/writer-process.ts';
import { tempStoreFile } from './support/temp-store-file.ts';

// Each case starts Node processes, which alone can take seconds on a busy machine.
const PROCESS_TIMEOUT_MS = 120_000;

describe('SQLite event store, with other processes on the file', () => {
  let file: string;
  let remove: () => Promise<void>;
  const writers: WriterProcess[] = [];

  beforeEach(async () => {
    ({ file, remove } = await tempStoreFile());
  });
  afterEach(async () => {
    for (const writer of writers.splice(0)) {
      writer.kill('SIGKILL');
      await writer.exited;
    }
    await remove();
  });

  /** The events of `stream` and of the `<stream>-<i>` streams of concurrent chains, in position order. */
  const reopenAndRead = async (stream: string) => {
    const store = openSqliteEventStore({ file });
    try {
      const events = await store.readAll({ filter: { streamPrefixes: [stream] } });
      return { events, integrity: await store.integrityCheck() };
    } finally {
      await store.close();
    }
  };

  const revisionsAreContiguousPerStream = (events: readonly RecordedEvent[]): boolean => {
    const next = new Map<string, number>();
    for (const event of events) {
      if (event.revision !== (next.get(event.streamName) ?? 0)) return false;
      next.set(event.streamName, event.revision + 1);
    }
    return true;
  };

  // One append at a time, and several in flight, whose acknowledgements come from shared commits.
  const modes: [label: string, inFlight: number][] = [
    ['one append at a time', 1],
    ['8 appends in flight', 8],
  ];

  it.each(modes)(
    'when the writing process (%s) is killed with SIGKILL, every acknowledged event is there and the file is sound',
    async (_, inFlight) => {
      const stream = `crash-${randomUUID()}`;
      const writer = startWriter(file, stream, { inFlight });
      writers.push(writer);
      await writer.waitForAcks(200, PROCESS_TIMEOUT_MS / 2);
      writer.kill('SIGKILL');
      expect(await writer.exited).toBe('SIGKILL');

      const acknowledged = [...writer.acks];
      const { events, integrity } = await reopenAndRead(stream);
      const stored = new Set(events.map((event) => event.id));
      expect(acknowledged.length).toBeGreaterThanOrEqual(200);
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
      expect(new Set(events.map((event) => event.streamName)).size).toBe(inFlight);
      expect(revisionsAreContiguousPerStream(events)).toBe(true);
      expect(integrity).toEqual(['ok']);
    },
    PROCESS_TIMEOUT_MS,
  );

  it.each(modes)(
    'when three processes (%s each) append to the same streams at once, every acknowledged event is stored once, revisions contiguous',
    async (_, inFlight) => {
      const stream = `contended-${randomUUID()}`;
      const started = [1, 2, 3].map(() => startWriter(file, stream, { count: 60, inFlight }));
      writers.push(...started);
      expect(await Promise.all(started.map((writer) => writer.exited))).toEqual([0, 0, 0]);

      const acknowledged = started.flatMap((writer) => writer.acks);
      const { events, integrity } = await reopenAndRead(stream);
      expect(acknowledged).toHaveLength(180);
      expect(events).toHaveLength(180);
      expect(new Set(events.map((event) => event.id))).toEqual(new Set(acknowledged));
      expect(revisionsAreContiguousPerStream(events)).toBe(true);
      expect(integrity).toEqual(['ok']);
    },
    PROCESS_TIMEOUT_MS,
  );
});
