import { hash } from 'node:crypto';

/**
 * The Merkle tree of RFC 9162 (Certificate Transparency 2.0, section 2.1), pure: SHA-256, a leaf hashed
 * as SHA-256(0x00 || leaf), an inner node as SHA-256(0x01 || left || right); a tree of n leaves splits
 * at k, the largest power of two smaller than n. Inclusion and consistency proofs are made and checked
 * with the RFC's algorithms (2.1.3, 2.1.4), so any implementation of the RFC (Go's sumdb/tlog,
 * transparency-dev/merkle, Trillian) reads them.
 *
 * Proofs are made from a `SubtreeHashes` source: the hash of a complete, aligned subtree, the one of
 * level `level` at `index` covering leaves [index·2^level, (index+1)·2^level). A tree keeps those
 * (tree-store.ts), so a proof costs O(log n) of them, whatever the size of the log.
 */

export type Hash = Buffer;
export const HASH_SIZE = 32;

// One-shot hashing: a tree built from the log hashes every event and about as many nodes. The digest
// comes back as text ("binary": a character a byte) and is copied into a Buffer from Node's pool: a
// digest asked for as a Buffer gets a memory allocation of its own, which costs as much as the hashing
// of a node.
const sha256 = (data: Uint8Array | string): Hash => Buffer.from(hash('sha256', data, 'binary'), 'binary');

/** SHA-256(0x00 || leaf); a leaf given as text is its UTF-8 bytes. */
export const leafHash = (leaf: Uint8Array | string): Hash => (typeof leaf === 'string' ? sha256(`\u0000${leaf}`) : sha256(Buffer.concat([Buffer.of(0), leaf])));

// 0x01 || left || right, written in place: hashing reads it at once.
const node = Buffer.alloc(1 + 2 * HASH_SIZE);
node[0] = 1;

export const nodeHash = (left: Uint8Array, right: Uint8Array): Hash => {
  if (left.length !== HASH_SIZE || right.length !== HASH_SIZE) return sha256(Buffer.concat([Buffer.of(1), left, right]));
  node.set(left, 1);
  node.set(right, 1 + HASH_SIZE);
  return sha256(node);
};

/** The root of the empty tree: SHA-256 of nothing. */
export const emptyRoot = (): Hash => sha256(Buffer.alloc(0));

/** The hash of the complete subtree of `level` at `index` (leaves index·2^level ..). */
export type SubtreeHashes = (level: number, index: number) => Hash;

/** The largest power of two strictly smaller than n (n > 1). */
export const splitPoint = (n: number): number => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

const isPowerOfTwo = (n: number): boolean => n > 0 && (n & (n - 1)) === 0;

const levelOf = (size: number): number => Math.log2(size);

/** MTH(D[from:to]) of the RFC, for a range starting on a boundary of its first split (every range a proof asks for). */
export const rangeHash = (subtrees: SubtreeHashes, from: number, to: number): Hash => {
  const size = to - from;
  if (size <= 0) throw new RangeError(`An empty range of leaves has no hash (${from}..${to})`);
  if (isPowerOfTwo(size) && from % size === 0) return subtrees(levelOf(size), from / size);
  const k = splitPoint(size);
  return nodeHash(rangeHash(subtrees, from, from + k), rangeHash(subtrees, from + k, to));
};

/** The root of a tree of `size` leaves. */
export const rootOf = (subtrees: SubtreeHashes, size: number): Hash => (size === 0 ? emptyRoot() : rangeHash(subtrees, 0, size));

/** PATH(m, D[n]) of RFC 9162 2.1.3.1: the audit path of leaf `index` in the tree of `size` leaves, from the leaf up. */
export const inclusionProof = (subtrees: SubtreeHashes, index: number, size: number): Hash[] => {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) {
    throw new RangeError(`Leaf ${index} is not in a tree of ${size} leaves`);
  }
  const path = (m: number, from: number, to: number): Hash[] => {
    const n = to - from;
    if (n === 1) return [];
    const k = splitPoint(n);
    return m < k ? [...path(m, from, from + k), rangeHash(subtrees, from + k, to)] : [...path(m - k, from + k, to), rangeHash(subtrees, from, from + k)];
  };
  return path(index, 0, size);
};

/** PROOF(m, D[n]) of RFC 9162 2.1.4.1: that the tree of `first` leaves is a prefix of the tree of `second`. */
export const consistencyProof = (subtrees: SubtreeHashes, first: number, second: number): Hash[] => {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) {
    throw new RangeError(`No consistency proof from ${first} to ${second} leaves`);
  }
  if (first === 0 || first === second) return [];
  const subproof = (m: number, from: number, to: number, whole: boolean): Hash[] => {
    const n = to - from;
    if (m === n) return whole ? [] : [rangeHash(subtrees, from, to)];
    const k = splitPoint(n);
    return m <= k
      ? [...subproof(m, from, from + k, whole), rangeHash(subtrees, from + k, to)]
      : [...subproof(m - k, from + k, to, false), rangeHash(subtrees, from, from + k)];
  };
  return subproof(first, 0, second, true);
};

/** RFC 9162 2.1.3.2: whether `proof` shows the leaf of hash `leaf` at `index` in the tree of `size` leaves and this root. */
export const verifyInclusion = (leaf: Uint8Array, index: number, size: number, proof: readonly Uint8Array[], root: Uint8Array): boolean => {
  if (index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r: Uint8Array = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && Buffer.from(r).equals(Buffer.from(root));
};

/** RFC 9162 2.1.4.2: whether `proof` shows the tree of `first` leaves and `firstRoot` a prefix of the one of `second` and `secondRoot`. */
export const verifyConsistency = (first: number, second: number, proof: readonly Uint8Array[], firstRoot: Uint8Array, secondRoot: Uint8Array): boolean => {
  if (first < 0 || first > second) return false;
  const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
  if (first === second) return proof.length === 0 && same(firstRoot, secondRoot);
  if (first === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr: Uint8Array = path[0]!;
  let sr: Uint8Array = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return same(fr, firstRoot) && same(sr, secondRoot) && sn === 0;
};

/**
 * The tree grown leaf by leaf in memory, keeping only the right edge (one hash per level: the compact
 * range of the leaves so far): its root at any size, without the subtrees. What a verifier recomputes
 * from the log; `onSubtree` hears each complete subtree as it closes (a tree store keeps them).
 */
export class GrowingTree {
  private readonly edge: Hash[] = [];
  size = 0;

  constructor(private readonly onSubtree?: (level: number, index: number, hash: Hash) => void) {}

  append(hash: Hash): void {
    let node = hash;
    let index = this.size;
    this.onSubtree?.(0, index, node);
    let level = 0;
    while (index % 2 === 1) {
      node = nodeHash(this.edge.pop()!, node);
      index = Math.floor(index / 2);
      level += 1;
      this.onSubtree?.(level, index, node);
    }
    this.edge.push(node);
    this.size += 1;
  }

  root(): Hash {
    if (this.edge.length === 0) return emptyRoot();
    let root = this.edge[this.edge.length - 1]!;
    for (let i = this.edge.length - 2; i >= 0; i--) root = nodeHash(this.edge[i]!, root);
    return root;
  }

  /** The right edge, to resume from. */
  edgeHashes(): Hash[] {
    return [...this.edge];
  }

  static resume(size: number, edge: readonly Hash[], onSubtree?: (level: number, index: number, hash: Hash) => void): GrowingTree {
    const tree = new GrowingTree(onSubtree);
    tree.size = size;
    tree.edge.push(...edge);
    return tree;
  }
}
