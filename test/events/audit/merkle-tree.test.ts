import { beforeAll, describe, expect, it } from 'vitest';
import { eventLeaf } from '../../../src/events/audit/leaf.ts';
import {
  consistencyProof,
  GrowingTree,
  inclusionProof,
  leafHash,
  rootOf,
  verifyConsistency,
  verifyInclusion,
  type Hash,
  type SubtreeHashes,
} from '../../../src/events/audit/merkle.ts';
import type { RecordedEvent } from '../../../src/events/store/event-store.ts';
import { buildTlogCheck, runTlogCheck } from './tlog-check.ts';

const event = (position: number): RecordedEvent => ({
  id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
  type: 'ProductUpserted',
  streamName: `product-sku-${position % 7}`,
  revision: Math.floor(position / 7),
  position,
  recordedAt: new Date(Date.UTC(2026, 10, 27, 12, 0, position)).toISOString(),
  data: { sku: `sku-${position % 7}`, price: position * 100, tags: ['é', 'b'], nested: { z: 1, a: null } },
  metadata: { actor: { kind: 'system' }, correlationId: 'c', causationId: 'c', occurredAt: '2026-11-27T12:00:00.000Z' },
});

/** A tree of the given leaves, its complete subtrees kept in memory, as the tree store keeps them on disk. */
const treeOf = (leaves: readonly Uint8Array[]): { subtrees: SubtreeHashes; growing: GrowingTree } => {
  const kept = new Map<string, Hash>();
  const growing = new GrowingTree((level, index, hash) => kept.set(`${level}:${index}`, hash));
  for (const leaf of leaves) growing.append(leafHash(leaf));
  return {
    growing,
    subtrees: (level, index) => {
      const hash = kept.get(`${level}:${index}`);
      if (!hash) throw new Error(`no subtree ${level}:${index}`);
      return hash;
    },
  };
};

// RFC 9162's shapes of tree: every size 1 to 9, and powers of two with one more.
const shapes = [1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 33, 65];
const leaves = Array.from({ length: 65 }, (_, i) => eventLeaf(event(i + 1)));
let binary: string;

beforeAll(async () => {
  binary = await buildTlogCheck();
}, 300_000);

describe("the log's Merkle tree (RFC 9162), checked by an independent implementation (Go's sumdb/tlog)", () => {
  it('when both hash the same event leaves, they find the same root at every size', async () => {
    const { subtrees, growing } = treeOf(leaves);
    const answer = await runTlogCheck(binary, { leaves });
    expect(answer.roots).toHaveLength(leaves.length);
    const ours = answer.roots.map((_, i) => rootOf(subtrees, i + 1).toString('hex'));
    expect(ours).toEqual(answer.roots.map((root) => root.toString('hex')));
    expect(growing.root().toString('hex')).toBe(answer.roots.at(-1)!.toString('hex'));
    // The root of a tree of one leaf is the leaf's hash: SHA-256(0x00 || leaf).
    expect(answer.roots[0]!.equals(leafHash(leaves[0]!))).toBe(true);
  });

  it("when the service proves each leaf's inclusion in each shape of tree, Go accepts every proof, and one hash changed is refused", async () => {
    const { subtrees } = treeOf(leaves);
    const inclusion = shapes.flatMap((size) =>
      Array.from({ length: size }, (_, index) => ({
        index,
        size,
        leaf: leafHash(leaves[index]!),
        proof: inclusionProof(subtrees, index, size),
        root: rootOf(subtrees, size),
      })),
    );
    for (const c of inclusion) expect(verifyInclusion(c.leaf, c.index, c.size, c.proof, c.root)).toBe(true);
    // Proofs of O(log n) hashes.
    for (const c of inclusion) expect(c.proof.length).toBeLessThanOrEqual(Math.ceil(Math.log2(c.size)));
    const forged = inclusion
      .filter((c) => c.proof.length > 0)
      .map((c) => ({ ...c, proof: c.proof.map((hash, i) => (i === c.proof.length - 1 ? Buffer.from(hash.map((byte) => byte ^ 1)) : hash)) }));
    const answer = await runTlogCheck(binary, { leaves: [], inclusion: [...inclusion, ...forged] });
    expect(answer.inclusion).toHaveLength(inclusion.length + forged.length);
    expect(answer.inclusion.slice(0, inclusion.length).every(Boolean)).toBe(true);
    expect(answer.inclusion.slice(inclusion.length).some(Boolean)).toBe(false);
    for (const c of forged) expect(verifyInclusion(c.leaf, c.index, c.size, c.proof, c.root)).toBe(false);
  });

  it('when the service proves each smaller tree consistent with each larger one, Go accepts every proof, and a wrong older root is refused', async () => {
    const { subtrees } = treeOf(leaves);
    const consistency = shapes.flatMap((second) =>
      shapes
        .filter((first) => first < second)
        .map((first) => ({
          first,
          second,
          proof: consistencyProof(subtrees, first, second),
          firstRoot: rootOf(subtrees, first),
          secondRoot: rootOf(subtrees, second),
        })),
    );
    for (const c of consistency) expect(verifyConsistency(c.first, c.second, c.proof, c.firstRoot, c.secondRoot)).toBe(true);
    const rewritten = consistency.map((c) => ({ ...c, firstRoot: leafHash(Buffer.from('another past')) }));
    const answer = await runTlogCheck(binary, { leaves: [], consistency: [...consistency, ...rewritten] });
    expect(answer.consistency).toHaveLength(consistency.length * 2);
    expect(answer.consistency.slice(0, consistency.length).every(Boolean)).toBe(true);
    expect(answer.consistency.slice(consistency.length).some(Boolean)).toBe(false);
    for (const c of rewritten) expect(verifyConsistency(c.first, c.second, c.proof, c.firstRoot, c.secondRoot)).toBe(false);
  });

  it('when a leaf is proven in a tree it is not in, the proof is refused rather than made', () => {
    const { subtrees } = treeOf(leaves.slice(0, 5));
    expect(() => inclusionProof(subtrees, 5, 5)).toThrow(RangeError);
    expect(() => consistencyProof(subtrees, 6, 5)).toThrow(RangeError);
  });

  it('when an event is encoded as a leaf, its keys are sorted at every depth, without white space', () => {
    const text = eventLeaf(event(3)).toString('utf8');
    expect(text.startsWith('{"data":{"nested":{"a":null,"z":1},"price":300,"sku":"sku-3","tags":["é","b"]},"id":')).toBe(true);
    expect(text).toContain('"position":3,"recordedAt":"2026-11-27T12:00:03.000Z","revision":0,"stream":"product-sku-3","type":"ProductUpserted"}');
  });
});
