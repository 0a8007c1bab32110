import { HASH_SIZE, type Hash, type SubtreeHashes } from './merkle.ts';

/**
 * Every complete subtree of a tree recomputed in memory, one growing buffer per level (about 64 bytes
 * an event: 28 MB for 440,000 events): the root at any earlier size in O(log n).
 */
export class SubtreeMemory {
  private readonly levels: { bytes: Buffer; count: number }[] = [];

  keep = (level: number, index: number, hash: Hash): void => {
    let stored = this.levels[level];
    if (!stored) {
      stored = { bytes: Buffer.alloc(HASH_SIZE * 1024), count: 0 };
      this.levels[level] = stored;
    }
    if (index !== stored.count) throw new Error(`Subtree ${level}:${index} kept out of order`);
    if ((index + 1) * HASH_SIZE > stored.bytes.length) {
      const larger = Buffer.alloc(stored.bytes.length * 2);
      stored.bytes.copy(larger);
      stored.bytes = larger;
    }
    hash.copy(stored.bytes, index * HASH_SIZE);
    stored.count += 1;
  };

  subtrees: SubtreeHashes = (level, index) => {
    const stored = this.levels[level];
    if (!stored || index >= stored.count) throw new Error(`No subtree ${level}:${index} recomputed`);
    return stored.bytes.subarray(index * HASH_SIZE, (index + 1) * HASH_SIZE);
  };
}
