import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request a correlation id of the service's own, carried into the metadata of every event
 * the request causes: an audit trail a client cannot write into. A caller's well-formed `X-Request-Id`
 * is kept beside it as what it is (`clientRequestId`, in the events' metadata too) and echoed;
 * without one, the correlation id is echoed, so that a client always has an id to quote.
 */
export const requestContext = (): Middleware => async (ctx, next) => {
  const given = ctx.get('x-request-id');
  ctx.state.correlationId = randomUUID();
  ctx.state.clientRequestId = requestIdPattern.test(given) ? given : undefined;
  ctx.state.requestId = ctx.state.clientRequestId ?? ctx.state.correlationId;
  ctx.set('X-Request-Id', ctx.state.requestId);
  await next();
};
