import bodyParser from 'koa-bodyparser';
import type { Middleware } from 'koa';
import { NotJsonBodyError } from './error-handler.ts';

/** Methods whose body the API reads. */
const withBody = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The API's bodies are JSON, 1 MiB at most (413 above). Older clients send JSON without a
 * Content-Type, or as text/plain: it is read as JSON all the same. A body declared as JSON but
 * malformed is refused with 400 by the error handler; a body that is not JSON at all (another media
 * type, or undeclared text that does not parse) with 415, in the group's envelope, rather than a
 * misleading field error further on. Outside /api (GraphQL reads its own media types) only declared
 * JSON is parsed.
 */
export const jsonBody = (): Middleware => {
  const parse = bodyParser({
    enableTypes: ['json'],
    extendTypes: { json: ['text/plain'] },
    jsonLimit: '1mb',
    strict: true,
    onerror: (error) => {
      throw error;
    },
  });
  return async (ctx, next) => {
    const api = ctx.path.startsWith('/api/') && withBody.has(ctx.method) && ctx.request.length !== 0 && hasBody(ctx.req.headers);
    if (!api) return parse(ctx, next);
    const declared = ctx.request.type; // '' when there is no Content-Type
    if (declared === '') ctx.req.headers['content-type'] = 'text/plain; charset=utf-8';
    const json = declared === '' || declared === 'text/plain' || ctx.request.is('json') !== false;
    if (!json) throw new NotJsonBodyError();
    if (declared === 'application/json' || declared.endsWith('+json')) return parse(ctx, next);
    try {
      await parse(ctx, async () => undefined);
    } catch (error) {
      if ((error as { status?: number }).status === 413) throw error;
      throw new NotJsonBodyError();
    }
    return next();
  };
};

/** As Node's own rule: a request has a body when it announces a length or a chunked transfer. */
const hasBody = (headers: Record<string, string | string[] | undefined>): boolean =>
  headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
