import bodyParser from 'koa-bodyparser';
import type { Middleware } from 'koa';
import { NotJsonBodyError } from './error-handler.ts';

/** Methods whose body the API reads. */
const withBody = new Set(['POST', 'PUT', 'PATCH']);

/** JSON only, 1 MiB at most (413 above); a parse failure is thrown to the error handler. */
const jsonParser = (options: { whateverTheType?: boolean } = {}): Middleware =>
  bodyParser({ enableTypes: ['json'], jsonLimit: '1mb', strict: true, ...(options.whateverTheType && { detectJSON: () => true }) });

/**
 * The API's bodies are JSON. Older clients send JSON without a Content-Type, or as text/plain: it is
 * read as JSON all the same. A body declared as JSON but malformed is refused with 400 by the error
 * handler; a body that is not JSON at all (another media type, or undeclared text that does not
 * parse) with 415, in the group's envelope, rather than a misleading field error further on.
 * Outside /api (GraphQL reads its own media types) only declared JSON is parsed.
 */
export const jsonBody = (): Middleware => {
  const declaredJson = jsonParser();
  const undeclaredJson = jsonParser({ whateverTheType: true });
  return async (ctx, next) => {
    // null: no body; 'json': declared JSON; false: anything else, or no Content-Type.
    const declared = ctx.request.is('json');
    if (declared !== false || !ctx.path.startsWith('/api/') || !withBody.has(ctx.method)) return declaredJson(ctx, next);
    if (ctx.request.type !== '' && ctx.request.type !== 'text/plain') throw new NotJsonBodyError();
    try {
      await undeclaredJson(ctx, async () => undefined);
    } catch (error) {
      if ((error as { status?: number }).status === 413) throw error;
      throw new NotJsonBodyError();
    }
    return next();
  };
};
