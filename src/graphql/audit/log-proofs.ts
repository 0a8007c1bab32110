import { consistencyProof, inclusionProof } from '../../events/audit/merkle.ts';
import type { StoredHead } from '../../events/audit/tree-store.ts';
import { builder } from '../builder.ts';
import { badUserInput } from '../errors.ts';

/**
 * The log's proofs (docs/audit.md), as the REST routes of /api/audit/log serve them: signed tree heads,
 * an event's inclusion proof, the consistency proof of two sizes. Hashes and signatures in base64;
 * `signedAt` as signed (a string, not a DateTime rewritten into a time zone), so that the signature
 * verifies on what is read.
 */

const TreeHeadRef = builder.objectRef<StoredHead>('LogTreeHead').implement({
  description: "A signed head of the log's Merkle tree: the first treeSize events hash to rootHash.",
  fields: (t) => ({
    treeSize: t.exposeInt('treeSize'),
    rootHash: t.exposeString('rootHash'),
    signedAt: t.exposeString('signedAt', { description: 'ISO-8601, exactly as signed' }),
    keyId: t.exposeString('keyId'),
    signature: t.exposeString('signature', { description: 'Ed25519, base64, of the signed message (docs/audit.md)' }),
    publicKey: t.exposeString('publicKey'),
    position: t.expose('position', { type: 'Position', description: 'Where the head is recorded in the log' }),
  }),
});

type Inclusion = { position: number; leafIndex: number; treeSize: number; leafHash: string; proof: string[]; rootHash: string; head: StoredHead | null };
type Consistency = { from: number; to: number; proof: string[]; fromRootHash: string; toRootHash: string; toHead: StoredHead | null };

const InclusionRef = builder.objectRef<Inclusion>('LogInclusionProof').implement({
  fields: (t) => ({
    position: t.expose('position', { type: 'Position' }),
    leafIndex: t.exposeInt('leafIndex'),
    treeSize: t.exposeInt('treeSize'),
    leafHash: t.exposeString('leafHash'),
    proof: t.exposeStringList('proof', { description: 'RFC 9162 2.1.3, from the leaf up' }),
    rootHash: t.exposeString('rootHash'),
    head: t.field({ type: TreeHeadRef, nullable: true, resolve: (proof) => proof.head }),
  }),
});

const ConsistencyRef = builder.objectRef<Consistency>('LogConsistencyProof').implement({
  fields: (t) => ({
    from: t.exposeInt('from'),
    to: t.exposeInt('to'),
    proof: t.exposeStringList('proof', { description: 'RFC 9162 2.1.4' }),
    fromRootHash: t.exposeString('fromRootHash'),
    toRootHash: t.exposeString('toRootHash'),
    toHead: t.field({ type: TreeHeadRef, nullable: true, resolve: (proof) => proof.toHead }),
  }),
});

const b64 = (hash: Buffer) => hash.toString('base64');

builder.queryField('logTreeHead', (t) =>
  t.field({
    type: TreeHeadRef,
    nullable: true,
    description: 'The signed head of that tree size, the latest when no size is given; null when none was signed.',
    args: { size: t.arg.int() },
    resolve: (_root, { size }, { runtime }) => {
      if (size !== null && size !== undefined && size < 1) throw badUserInput('size', 'must be at least 1');
      const { tree } = runtime.logAudit;
      return (size === null || size === undefined ? tree.latestHead() : tree.headAt(size)) ?? null;
    },
  }),
);

builder.queryField('logInclusionProof', (t) =>
  t.field({
    type: InclusionRef,
    description: "The event's inclusion proof in the tree of treeSize events (the latest signed head's by default).",
    args: { position: t.arg({ type: 'Position', required: true }), treeSize: t.arg.int() },
    resolve: (_root, args, { runtime }) => {
      const { tree } = runtime.logAudit;
      const treeSize = args.treeSize ?? tree.latestHead()?.treeSize;
      if (treeSize === undefined) throw badUserInput('treeSize', 'no tree head is signed yet');
      if (treeSize < 1 || treeSize > tree.size()) throw badUserInput('treeSize', `must be from 1 to ${tree.size()}`);
      const leafIndex = tree.leafIndexAt(args.position);
      if (leafIndex === undefined || leafIndex >= treeSize) throw badUserInput('position', `no event at position ${args.position} in a tree of ${treeSize}`);
      return {
        position: args.position,
        leafIndex,
        treeSize,
        leafHash: b64(tree.leafHashAt(leafIndex)!),
        proof: inclusionProof(tree.subtrees, leafIndex, treeSize).map(b64),
        rootHash: b64(tree.root(treeSize)),
        head: tree.headAt(treeSize) ?? null,
      };
    },
  }),
);

builder.queryField('logConsistencyProof', (t) =>
  t.field({
    type: ConsistencyRef,
    description: 'That the tree of `from` events is a prefix of the tree of `to` (the latest signed head by default).',
    args: { from: t.arg.int({ required: true }), to: t.arg.int() },
    resolve: (_root, args, { runtime }) => {
      const { tree } = runtime.logAudit;
      const to = args.to ?? tree.latestHead()?.treeSize;
      if (to === undefined) throw badUserInput('to', 'no tree head is signed yet');
      if (to < 1 || to > tree.size()) throw badUserInput('to', `must be from 1 to ${tree.size()}`);
      if (args.from < 1 || args.from > to) throw badUserInput('from', `must be from 1 to ${to}`);
      return {
        from: args.from,
        to,
        proof: consistencyProof(tree.subtrees, args.from, to).map(b64),
        fromRootHash: b64(tree.root(args.from)),
        toRootHash: b64(tree.root(to)),
        toHead: tree.headAt(to) ?? null,
      };
    },
  }),
);
