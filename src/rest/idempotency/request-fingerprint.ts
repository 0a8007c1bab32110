import { createHash } from 'node:crypto';
import type { ParameterizedContext } from 'koa';
import stableStringify from 'safe-stable-stringify';

/**
 * What makes two requests "the same" for an idempotency key: the method, the path, the query string
 * and the body as parsed JSON with its keys sorted (a client may serialise its retry differently).
 * A SHA-256 digest: the record keeps no request content.
 */
export const requestFingerprint = (ctx: ParameterizedContext): string =>
  createHash('sha256')
    .update(JSON.stringify([ctx.method, ctx.path, ctx.querystring, stableStringify(ctx.request.body ?? null) ?? null]))
    .digest('hex');
