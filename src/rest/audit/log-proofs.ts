import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import { consistencyOf, inclusionOf, isRefusal, type ProofRefusal } from '../../events/audit/log-proofs.ts';
import type { StoredHead } from '../../events/audit/tree-store.ts';
import { notaryOff } from '../../events/audit/notary-off.ts';
import { HttpError } from '../../http/http-error.ts';
import type { LogAudit, Runtime } from '../../runtime.ts';
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

/** The log's tree and key; 404 when the service keeps none (LOG_NOTARY=off). */
const logAuditOf = (runtime: Runtime): LogAudit => {
  if (!runtime.logAudit) throw new HttpError(404, 'not_found', notaryOff);
  return runtime.logAudit;
};

const latestHead = (runtime: Runtime): StoredHead => {
  const head = logAuditOf(runtime).tree.latestHead();
  if (!head) throw new HttpError(404, 'not_found', 'No tree head is signed yet: the notary signs one within seconds of the first events');
  return head;
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
    const head = logAuditOf(runtime).tree.headAt(size);
    if (!head) throw new HttpError(404, 'not_found', `No signed tree head of size ${size}`);
    answerExactly(ctx, head);
  };

/** A proof the tree cannot give: 404 when what the request names does not exist (yet), else 400. */
const refused = ({ missing, field, message }: ProofRefusal): HttpError =>
  new HttpError(missing ? 404 : 400, missing ? 'not_found' : 'invalid_request', `${field}: ${message}`);

export const getInclusionProof =
  (runtime: Runtime): Middleware =>
  (ctx) => {
    const query = parseInput(inclusionQuery, ctx.query, invalid);
    const answer: z.input<typeof inclusionAnswer> | ProofRefusal = inclusionOf(logAuditOf(runtime).tree, query.position, query.treeSize);
    if (isRefusal(answer)) throw refused(answer);
    answerExactly(ctx, answer);
  };

export const getConsistencyProof =
  (runtime: Runtime): Middleware =>
  (ctx) => {
    const query = parseInput(consistencyQuery, ctx.query, invalid);
    const answer: z.input<typeof consistencyAnswer> | ProofRefusal = consistencyOf(logAuditOf(runtime).tree, query.from, query.to);
    if (isRefusal(answer)) throw refused(answer);
    answerExactly(ctx, answer);
  };

export const getPublicKeys =
  (runtime: Runtime): Middleware =>
  (ctx) => {
    const { key, tree } = logAuditOf(runtime);
    const current = { keyId: key.keyId, publicKey: b64(key.raw) };
    const answer: z.input<typeof publicKeysAnswer> = {
      ...current,
      pem: key.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      keys: [...tree.publicKeys().filter((known) => known.keyId !== key.keyId), current],
    };
    answerExactly(ctx, answer);
  };
