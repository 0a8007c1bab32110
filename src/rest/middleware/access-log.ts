import type { Middleware } from 'koa';
import type { Logger } from '../../logger.ts';
import { matchedRoute } from './matched-route.ts';

/**
 * First in the chain: one log line per request once it is answered, with its request id (the one
 * echoed), the service's correlation id (the events'), method, route pattern, status and duration. Deliberately nothing else: no path or query string (they may
 * carry e-mail addresses), no headers (tokens), no bodies.
 */
export const accessLog =
  (options: { log: Logger }): Middleware =>
  async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      options.log.info(
        {
          requestId: ctx.state.requestId as string | undefined,
          correlationId: ctx.state.correlationId as string | undefined,
          method: ctx.method,
          route: matchedRoute(ctx),
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    }
  };
