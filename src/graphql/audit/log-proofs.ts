import { consistencyOf, inclusionOf, isRefusal, type ConsistencyAnswer, type InclusionAnswer, type ProofRefusal } from '../../events/audit/log-proofs.ts';
import type { StoredHead } from '../../events/audit/tree-store.ts';
import { builder } from '../builder.ts';
import { badUserInput } from '../errors.ts';
import { notaryOff } from '../../events/audit/notary-off.ts';
import type { LogAudit, Runtime } from '../../runtime.ts';
import { GraphQLError } from 'graphql/index.js';

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

const InclusionRef = builder.objectRef<InclusionAnswer>('LogInclusionProof').implement({
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

const ConsistencyRef = builder.objectRef<ConsistencyAnswer>('LogConsistencyProof').implement({
  fields: (t) => ({
    from: t.exposeInt('from'),
    to: t.exposeInt('to'),
    proof: t.exposeStringList('proof', { description: 'RFC 9162 2.1.4' }),
    fromRootHash: t.exposeString('fromRootHash'),
    toRootHash: t.exposeString('toRootHash'),
    toHead: t.field({ type: TreeHeadRef, nullable: true, resolve: (proof) => proof.toHead }),
  }),
});

/** Every proof the tree cannot give is a wrong input here, naming its argument. */
/** The log's tree; NOT_FOUND when the service keeps none (LOG_NOTARY=off). */
const logAuditOf = (runtime: Runtime): LogAudit => {
  if (!runtime.logAudit) throw new GraphQLError(notaryOff, { extensions: { code: 'NOT_FOUND' } });
  return runtime.logAudit;
};

const answered = <T extends object>(answer: T | ProofRefusal): T => {
  if (isRefusal(answer)) throw badUserInput(answer.field, answer.message);
  return answer;
};

builder.queryField('logTreeHead', (t) =>
  t.field({
    type: TreeHeadRef,
    nullable: true,
    description: 'The signed head of that tree size, the latest when no size is given; null when none was signed.',
    args: { size: t.arg.int() },
    resolve: (_root, { size }, { runtime }) => {
      if (size !== null && size !== undefined && size < 1) throw badUserInput('size', 'must be at least 1');
      const { tree } = logAuditOf(runtime);
      return (size === null || size === undefined ? tree.latestHead() : tree.headAt(size)) ?? null;
    },
  }),
);

builder.queryField('logInclusionProof', (t) =>
  t.field({
    type: InclusionRef,
    description: "The event's inclusion proof in the tree of treeSize events (the latest signed head's by default).",
    args: { position: t.arg({ type: 'Position', required: true }), treeSize: t.arg.int() },
    resolve: (_root, args, { runtime }) => answered(inclusionOf(logAuditOf(runtime).tree, args.position, args.treeSize ?? undefined)),
  }),
);

builder.queryField('logConsistencyProof', (t) =>
  t.field({
    type: ConsistencyRef,
    description: 'That the tree of `from` events is a prefix of the tree of `to` (the latest signed head by default).',
    args: { from: t.arg.int({ required: true }), to: t.arg.int() },
    resolve: (_root, args, { runtime }) => answered(consistencyOf(logAuditOf(runtime).tree, args.from, args.to ?? undefined)),
  }),
);
