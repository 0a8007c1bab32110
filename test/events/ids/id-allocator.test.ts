import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../../src/events/command-context.ts';
import { appendDomainEvents } from '../../../src/events/domain-store.ts';
import { createIdAllocator } from '../../../src/events/ids/id-allocator.ts';
import { sequenceStreamName } from '../../../src/events/ids/events.ts';
import type { EventStore, RecordedEvent } from '../../../src/events/store/event-store.ts';
import { openSqliteEventStore, type SqliteEventStore } from '../../../src/events/store/sqlite-event-store.ts';

/** The log as the allocator sees it, each stream read counted by the events it returned. */
const countingReads = (store: EventStore) => {
  const returned: number[] = [];
  const counted: EventStore = Object.create(store) as EventStore;
  counted.readStream = async (...args: Parameters<EventStore['readStream']>): Promise<RecordedEvent[]> => {
    const events = await store.readStream(...args);
    returned.push(events.length);
    return events;
  };
  return { store: counted, returned };
};

describe('ID allocation', () => {
  let dir: string;
  let store: SqliteEventStore;
  const context = systemContext();
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ids-'));
    store = openSqliteEventStore({ file: join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('continues after the last block reserved, reading that reservation alone however long the sequence has grown', async () => {
    // A long-lived retailer: 2,000 blocks reserved before this process started.
    for (let block = 0; block < 2_000; block += 500) {
      await appendDomainEvents(
        store,
        sequenceStreamName('sale'),
        Array.from({ length: 500 }, (_, index) => {
          const first = (block + index) * 20 + 1;
          return { type: 'IdRangeReserved' as const, data: { sequence: 'sale' as const, first, last: first + 19 } };
        }),
        context,
        new Date(),
        block === 0 ? 'no_stream' : block - 1,
      );
    }
    const reads = countingReads(store);
    const ids = createIdAllocator(reads.store, context, { blockSize: 20 });

    expect(await ids.next('sale')).toEqual([40_001]);
    expect(await ids.next('sale', 25)).toEqual(Array.from({ length: 25 }, (_, index) => 40_021 + index));
    expect(reads.returned).toEqual([1, 1]);
  });

  it('hands out no ID twice when two processes reserve from one sequence at once', async () => {
    const [one, other] = [createIdAllocator(store, context, { blockSize: 3 }), createIdAllocator(store, context, { blockSize: 3 })];
    const handed = (await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 ? one : other).next('sav', 2)))).flat();

    expect(new Set(handed).size).toBe(80);
    expect(Math.min(...handed)).toBe(1);
  });
});
