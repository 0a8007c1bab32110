import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Runtime } from '../../runtime.ts';
import { HttpError } from '../../http/http-error.ts';
import { authenticate } from '../../http/authenticate.ts';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * GET /metrics is for the scraper and the analysts: the Bearer token METRICS_TOKEN (compared in
 * constant time; the scraper needs no token in the event log, and it works while the read models
 * catch up), or an analyst token. Anything else answers 401: the metrics tell volumes and routes.
 */
export const metricsGuard = (runtime: Pick<Runtime, 'config' | 'accessTokens'>): Middleware => {
  const expected = runtime.config.metricsToken === undefined ? undefined : digest(runtime.config.metricsToken);
  const analyst = authenticate({
    findToken: runtime.accessTokens,
    scheme: 'bearer',
    groups: ['analyst'],
    unauthorized: () => new HttpError(401, 'Unauthorized', 'A Bearer token is required: METRICS_TOKEN or an analyst token'),
  });
  return async (ctx, next) => {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'))?.[1];
    if (expected !== undefined && given !== undefined && timingSafeEqual(digest(given), expected)) return next();
    ctx.set('WWW-Authenticate', 'Bearer');
    return analyst(ctx, next);
  };
};
