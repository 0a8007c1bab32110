import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import { consistencyProof, inclusionProof } from '../../events/audit/merkle.ts';
import type { StoredHead } from '../../events/audit/tree-store.ts';
import { HttpError } from '../../http/http-error.ts';
import type { Runtime } from '../../runtime.ts';
import { parseInput } from '../parse-input.ts';
import { consistencyAnswer, consistencyQuery, inclusionAnswer, inclusionQuery, publicKeysAnswer, treeSizeParams } from './schemas.ts';

/** The proofs of the log for auditors: signed heads, an event's inclusion, the consistency of two sizes. */

const invalid = (_field: string, issue: { message: string }) => new HttpError(400, 'invalid_request', issue.message);
const b64 = (hash: Buffer) => hash.toString('base64');

/**
 * Answered as JSON text, so that the signed values (a head's `signedAt`) leave exactly as signed: the
 * answers' time-zone rewriting of instants (middleware/zoned-timestamps.ts) leaves JSON text alone.
 */
const answerExactly = (ctx: Context, value: unknown): void => {
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = JSON.stringify(value);
};

const latestHead = (runtime: Runtime): StoredHead => {
  const head = runtime.logAudit.tree.latestHead();
  if (!head) throw new HttpError(404, 'not_found', 'No tree head is signed yet: the notary signs one within seconds of the first events');
  return head;
};

const withinTree = (runtime: Runtime, size: number, field: string): void => {
  const known = runtime.logAudit.tree.size();
  if (size > known) throw new HttpError(404, 'not_found', `${field}: the log's tree holds ${known} events, not ${size}`);
};

export const getLatestHead =
  (runtime: Runtime): Middleware =>
  (ctx) => {
    answerExactly(ctx, latestHead(runtime));
  };

export const getHeadAtSize =
  (runtime: Runtime): Middleware =>
  (ctx) => {
    const { size } = parseInput(treeSizeParams, ctx.params, invalid);
    const head = runtime.logAudit.tree.headAt(size);
    if (!head) throw new HttpError(404, 'not_found', `No signed tree head of size ${size}`);
    answerExactly(ctx, head);
  };

export const getInclusionProof =
  (runtime: Runtime): Middleware =>
  (ctx) => {
    const query = parseInput(inclusionQuery, ctx.query, invalid);
    const { tree } = runtime.logAudit;
    const treeSize = query.treeSize ?? latestHead(runtime).treeSize;
    withinTree(runtime, treeSize, 'treeSize');
    const leafIndex = tree.leafIndexAt(query.position);
    if (leafIndex === undefined) throw new HttpError(404, 'not_found', `position: no event at position ${query.position} in the log's tree`);
    if (leafIndex >= treeSize)
      throw new HttpError(400, 'invalid_request', `position: the event at ${query.position} is leaf ${leafIndex}, after a tree of ${treeSize}`);
    const answer: z.input<typeof inclusionAnswer> = {
      position: query.position,
      leafIndex,
      treeSize,
      leafHash: b64(tree.leafHashAt(leafIndex)!),
      proof: inclusionProof(tree.subtrees, leafIndex, treeSize).map(b64),
      rootHash: b64(tree.root(treeSize)),
      head: tree.headAt(treeSize) ?? null,
    };
    answerExactly(ctx, answer);
  };

export const getConsistencyProof =
  (runtime: Runtime): Middleware =>
  (ctx) => {
    const query = parseInput(consistencyQuery, ctx.query, invalid);
    const { tree } = runtime.logAudit;
    const to = query.to ?? latestHead(runtime).treeSize;
    withinTree(runtime, to, 'to');
    if (query.from > to) throw new HttpError(400, 'invalid_request', `from: must not exceed to (${to})`);
    const answer: z.input<typeof consistencyAnswer> = {
      from: query.from,
      to,
      proof: consistencyProof(tree.subtrees, query.from, to).map(b64),
      fromRootHash: b64(tree.root(query.from)),
      toRootHash: b64(tree.root(to)),
      toHead: tree.headAt(to) ?? null,
    };
    answerExactly(ctx, answer);
  };

export const getPublicKeys =
  (runtime: Runtime): Middleware =>
  (ctx) => {
    const { key, tree } = runtime.logAudit;
    const current = { keyId: key.keyId, publicKey: b64(key.raw) };
    const answer: z.input<typeof publicKeysAnswer> = {
      ...current,
      pem: key.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      keys: [...tree.publicKeys().filter((known) => known.keyId !== key.keyId), current],
    };
    answerExactly(ctx, answer);
  };
