import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request a correlation id (the caller's `X-Request-Id` when well-formed), echoed in the
 * response and carried into the metadata of every event the request causes.
 */
export const requestContext = (): Middleware => async (ctx, next) => {
  const given = ctx.get('x-request-id');
  ctx.state.requestId = requestIdPattern.test(given) ? given : randomUUID();
  ctx.set('X-Request-Id', ctx.state.requestId);
  await next();
};
