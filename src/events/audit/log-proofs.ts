import { consistencyProof, inclusionProof } from './merkle.ts';
import type { StoredHead, TreeStore } from './tree-store.ts';

/**
 * The proofs an auditor asks for (docs/audit.md), built once for every facade (REST, GraphQL): an
 * event's inclusion in a tree size, the consistency of two sizes. Hashes in base64. A request the tree
 * cannot answer is a refusal naming the field (its message says the rest): `missing` when what it names does not exist (yet), else
 * a value out of its range.
 */

export type InclusionAnswer = {
  position: number;
  leafIndex: number;
  treeSize: number;
  leafHash: string;
  proof: string[];
  rootHash: string;
  head: StoredHead | null;
};

export type ConsistencyAnswer = { from: number; to: number; proof: string[]; fromRootHash: string; toRootHash: string; toHead: StoredHead | null };

export type ProofRefusal = { refused: true; field: string; message: string; missing: boolean };

const b64 = (hash: Buffer): string => hash.toString('base64');

const refusal = (field: string, message: string, missing: boolean): ProofRefusal => ({ refused: true, field, message, missing });

/** The tree size asked for, or the latest signed head's; refused when there is none or the tree is smaller. */
const sizeToProve = (tree: TreeStore, asked: number | undefined, field: string): number | ProofRefusal => {
  const size = asked ?? tree.latestHead()?.treeSize;
  if (size === undefined) return refusal(field, 'no tree head is signed yet: the notary signs one within seconds of the first events', true);
  if (size < 1) return refusal(field, 'must be at least 1', false);
  if (size > tree.size()) return refusal(field, `the log's tree holds ${tree.size()} events, not ${size}`, true);
  return size;
};

export const inclusionOf = (tree: TreeStore, position: number, asked?: number): InclusionAnswer | ProofRefusal => {
  const treeSize = sizeToProve(tree, asked, 'treeSize');
  if (typeof treeSize !== 'number') return treeSize;
  const leafIndex = tree.leafIndexAt(position);
  if (leafIndex === undefined) return refusal('position', `no event at position ${position} in the log's tree`, true);
  if (leafIndex >= treeSize) return refusal('position', `the event at ${position} is leaf ${leafIndex}, after a tree of ${treeSize}`, false);
  return {
    position,
    leafIndex,
    treeSize,
    leafHash: b64(tree.leafHashAt(leafIndex)!),
    proof: inclusionProof(tree.subtrees, leafIndex, treeSize).map(b64),
    rootHash: b64(tree.root(treeSize)),
    head: tree.headAt(treeSize) ?? null,
  };
};

export const consistencyOf = (tree: TreeStore, from: number, asked?: number): ConsistencyAnswer | ProofRefusal => {
  const to = sizeToProve(tree, asked, 'to');
  if (typeof to !== 'number') return to;
  if (from < 1) return refusal('from', 'must be at least 1', false);
  if (from > to) return refusal('from', `must not exceed to (${to})`, false);
  return {
    from,
    to,
    proof: consistencyProof(tree.subtrees, from, to).map(b64),
    fromRootHash: b64(tree.root(from)),
    toRootHash: b64(tree.root(to)),
    toHead: tree.headAt(to) ?? null,
  };
};

export const isRefusal = (answer: object): answer is ProofRefusal => 'refused' in answer;
