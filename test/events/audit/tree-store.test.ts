import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consistencyProof, GrowingTree, inclusionProof, leafHash, rootOf, type Hash } from '../../../src/events/audit/merkle.ts';
import { SubtreeMemory } from '../../../src/events/audit/subtree-memory.ts';
import { openTreeStore, type TreeStore } from '../../../src/events/audit/tree-store.ts';

/**
 * The tree as an instance keeps it on disk, the small subtrees (2, 4, 8 leaves) hashed again from their
 * leaves when asked for, against the tree recomputed in memory with every subtree: the same roots at
 * every size and the same proofs, whatever batches the leaves came in.
 */
describe('the log tree kept in a file', () => {
  let root: string;
  let tree: TreeStore;
  const hashes: Hash[] = Array.from({ length: 150 }, (_, i) => leafHash(`leaf ${i}`));
  const memory = new SubtreeMemory();
  const reference = new GrowingTree(memory.keep);

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tree-store-'));
    tree = openTreeStore(path.join(root, 'tree.sqlite'));
    for (const hash of hashes) reference.append(hash);
    let from = 0;
    for (const count of [1, 2, 5, 9, 16, 17, 33, 67]) {
      tree.append(hashes.slice(from, from + count).map((hash, i) => ({ hash, position: 10 * (from + i) + 3, isHead: false })));
      from += count;
    }
  });

  afterAll(async () => {
    tree?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('when leaves came in batches of every shape, the root at every size and every proof are those of the tree with every subtree', () => {
    expect(tree.size()).toBe(hashes.length);
    expect(tree.root().equals(reference.root())).toBe(true);
    const hex = (proof: Hash[]) => proof.map((hash) => hash.toString('hex'));
    for (let size = 1; size <= hashes.length; size++) {
      expect(tree.root(size).toString('hex'), `size ${size}`).toBe(rootOf(memory.subtrees, size).toString('hex'));
      for (const index of [0, Math.floor(size / 3), size - 1]) {
        expect(hex(inclusionProof(tree.subtrees, index, size))).toEqual(hex(inclusionProof(memory.subtrees, index, size)));
      }
      expect(hex(consistencyProof(tree.subtrees, Math.ceil(size / 2), size))).toEqual(hex(consistencyProof(memory.subtrees, Math.ceil(size / 2), size)));
    }
    for (let level = 1; level < 4; level++) expect(tree.subtrees(level, 1).equals(memory.subtrees(level, 1))).toBe(true);
  });

  it('when a subtree of leaves it does not hold is asked for, the answer is that the tree must be rebuilt', () => {
    expect(() => tree.subtrees(2, 1_000)).toThrow(/rebuild it from the log/);
    expect(() => tree.subtrees(5, 1_000)).toThrow(/rebuild it from the log/);
  });
});
