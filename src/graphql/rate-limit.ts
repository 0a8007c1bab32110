import type { Middleware } from 'koa';
import { GraphQLError } from 'graphql/index.js';

/**
 * GRAPHQL_RATE_LIMIT operations per minute per token, as a token bucket: a token may spend the whole
 * minute's allowance at once, then one more operation each 60/limit seconds. Over it, the request is
 * answered 429 with `Retry-After` (seconds) and a GraphQL error of code RATE_LIMITED, before the
 * operation is parsed. 0 turns the limit off. Buckets live in the process: each instance counts its own.
 */

type Bucket = { tokens: number; updatedAt: number };

export const rateLimited = (retryAfterSeconds: number): GraphQLError =>
  new GraphQLError(`Too many operations for this token: retry in ${retryAfterSeconds} s`, { extensions: { code: 'RATE_LIMITED', retryAfterSeconds } });

export const rateLimit = ({ perMinute, now = () => performance.now() }: { perMinute: number; now?: () => number }): Middleware => {
  if (perMinute <= 0) return (_ctx, next) => next();
  const buckets = new Map<string, Bucket>();
  const refillPerMs = perMinute / 60_000;
  return async (ctx, next) => {
    const key: string = ctx.state.token.tokenId;
    const at = now();
    const bucket = buckets.get(key) ?? { tokens: perMinute, updatedAt: at };
    bucket.tokens = Math.min(perMinute, bucket.tokens + (at - bucket.updatedAt) * refillPerMs);
    bucket.updatedAt = at;
    buckets.set(key, bucket);
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000));
      ctx.status = 429;
      ctx.set('Retry-After', String(retryAfter));
      ctx.type = 'application/json';
      ctx.body = { errors: [rateLimited(retryAfter).toJSON()] };
      return;
    }
    bucket.tokens -= 1;
    await next();
  };
};
