import type { Middleware } from 'koa';
import type { Runtime } from '../runtime.ts';
import { HttpError } from '../http/http-error.ts';
import { authenticate } from '../http/authenticate.ts';
import { unauthenticated } from './errors.ts';

/**
 * Bearer tokens of the analyst, auditor or core group, checked by the REST authentication (same hashing, same
 * revocation, same attribution in `ctx.state`); every failure answers 401 with a GraphQL error whose
 * code is UNAUTHENTICATED, as GraphQL clients expect, rather than the REST envelope.
 */
export const analystGuard = (runtime: Runtime): Middleware => {
  const check = authenticate({
    findToken: runtime.accessTokens,
    scheme: 'bearer',
    groups: ['analyst', 'auditor', 'core'],
    unauthorized: () => new HttpError(401, 'UNAUTHENTICATED', 'Invalid or missing Bearer token'),
  });
  return async (ctx, next) => {
    let admitted = false;
    try {
      // Only the check runs inside: errors of the operation itself are not caught here.
      await check(ctx, async () => {
        admitted = true;
      });
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 401) throw error;
    }
    if (!admitted) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer');
      ctx.type = 'application/json';
      ctx.body = { errors: [unauthenticated().toJSON()] };
      return;
    }
    await next();
  };
};
