import type { CommandContext } from '../command-context.ts';
import { appendDomainEvents, readLastDomainEvent } from '../domain-store.ts';
import { WrongExpectedVersionError, type EventStore } from '../store/event-store.ts';
import { sequenceStreamName, type IdEvent, type SequenceName } from './events.ts';
import { createPerKeyQueue } from '../../concurrency/per-key-queue.ts';

/**
 * Allocates integer IDs (sale, sale product, SAV, refund, tracking) with no duplicate, across
 * concurrent commands and processes: each process reserves a block of IDs by appending
 * `IdRangeReserved` to the sequence's stream with the expected revision (a racing process gets a
 * conflict and reserves the next block), then hands IDs out of its block. IDs left in a block when
 * the process stops are never used: gaps are possible, duplicates are not. A reservation reads the
 * sequence's last reservation alone (its stream grows with the history: a block per 20 sales served).
 */
export type IdAllocator = {
  next: (sequence: SequenceName, count?: number) => Promise<number[]>;
};

type Block = { next: number; last: number };

export const createIdAllocator = (eventStore: EventStore, context: CommandContext, options: { blockSize?: number; now?: () => Date } = {}): IdAllocator => {
  const blockSize = options.blockSize ?? 20;
  const now = options.now ?? (() => new Date());
  const blocks = new Map<SequenceName, Block>();
  // One reservation at a time per sequence in this process, in the order asked; other processes are kept out by the revision check.
  const inOrder = createPerKeyQueue();

  const reserve = async (sequence: SequenceName, count: number): Promise<Block> => {
    const streamName = sequenceStreamName(sequence);
    for (;;) {
      const last = await readLastDomainEvent<IdEvent>(eventStore, streamName);
      const lastReserved = last?.data.last ?? 0;
      const revision = last?.revision ?? 'no_stream';
      const size = Math.max(count, blockSize);
      const reserved = { sequence, first: lastReserved + 1, last: lastReserved + size };
      try {
        await appendDomainEvents(eventStore, streamName, [{ type: 'IdRangeReserved', data: reserved }], context, now(), revision);
        return { next: reserved.first, last: reserved.last };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
      }
    }
  };

  const take = async (sequence: SequenceName, count: number): Promise<number[]> => {
    let block = blocks.get(sequence);
    if (!block || block.last - block.next + 1 < count) {
      block = await reserve(sequence, count);
      blocks.set(sequence, block);
    }
    const ids = Array.from({ length: count }, (_, index) => block.next + index);
    block.next += count;
    return ids;
  };

  return {
    next: (sequence, count = 1) => {
      return inOrder(sequence, () => take(sequence, count));
    },
  };
};
