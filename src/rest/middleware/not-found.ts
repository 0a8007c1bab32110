import type { Middleware } from 'koa';
import { HttpError } from '../http-error.ts';

/** Last in the chain: an unknown route answers 404 in JSON, in the envelope of its API group. */
export const notFound = (): Middleware => async (ctx, next) => {
  await next();
  if (ctx.status === 404 && ctx.body === undefined) {
    throw new HttpError(404, 'Not Found', `No route for ${ctx.method} ${ctx.path}`);
  }
};
