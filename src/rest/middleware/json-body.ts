import bodyParser from 'koa-bodyparser';
import type { Middleware } from 'koa';
import { BodyEncodingError, NotJsonBodyError } from './error-handler.ts';

/** Methods whose body the API reads. */
const withBody = new Set(['POST', 'PUT', 'PATCH']);

/** JSON only, `limitMib` at most (413 above, the error carrying the limit); a parse failure is thrown to the error handler. */
const jsonParser = (limitMib: number, options: { whateverTheType?: boolean } = {}): Middleware =>
  bodyParser({ enableTypes: ['json'], jsonLimit: `${limitMib}mb`, strict: true, ...(options.whateverTheType && { detectJSON: () => true }) });

const parsers = (limitMib: number) => ({ declaredJson: jsonParser(limitMib), undeclaredJson: jsonParser(limitMib, { whateverTheType: true }) });

/** A path as the routers match it: any case, trailing slash optional. */
const routeKey = (path: string): string => path.toLowerCase().replace(/\/$/, '');

export type JsonBodyOptions = {
  /** Routes whose bodies may carry files (data URLs) and their limit in MiB; every other body is limited to 1 MiB. */
  largerLimits?: Readonly<Record<string, number>>;
};

/**
 * The API's bodies are JSON. Older clients send JSON without a Content-Type, or as text/plain: it is
 * read as JSON all the same. A body declared as JSON but malformed is refused with 400 by the error
 * handler; a body that is not JSON at all (another media type, or undeclared text that does not
 * parse) with 415, in the group's envelope, rather than a misleading field error further on.
 * Outside /api (GraphQL reads its own media types) only declared JSON is parsed.
 */
/** The body's Content-Encoding as the client named it (shortened: it is echoed in the answer). */
const encodingOf = (ctx: Parameters<Middleware>[0]): string => (ctx.get('Content-Encoding').trim().toLowerCase() || 'identity').slice(0, 40);

/**
 * Runs a parser on the body alone (not on the rest of the chain, whose errors are not the body's).
 * gzip, deflate and br bodies are inflated by the parser, within the same limit once inflated; a body
 * that is not what its encoding says (zlib fails without a status) or an encoding it does not know
 * (its 415) is the client's mistake, answered as such.
 */
const parseBody = async (parser: Middleware, ctx: Parameters<Middleware>[0]): Promise<void> => {
  try {
    await parser(ctx, async () => undefined);
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    const encoding = encodingOf(ctx);
    if (status === 415 && /^Unsupported Content-Encoding/.test((error as Error).message)) throw new BodyEncodingError('unsupported', encoding);
    if (status === undefined && encoding !== 'identity') throw new BodyEncodingError('undecodable', encoding);
    throw error;
  }
};

export const jsonBody = (options: JsonBodyOptions = {}): Middleware => {
  const standard = parsers(1);
  const larger = new Map(Object.entries(options.largerLimits ?? {}).map(([path, limitMib]) => [routeKey(path), parsers(limitMib)]));
  return async (ctx, next) => {
    const { declaredJson, undeclaredJson } = larger.get(routeKey(ctx.path)) ?? standard;
    // null: no body; 'json': declared JSON; false: anything else, or no Content-Type.
    const declared = ctx.request.is('json');
    if (declared !== false || !ctx.path.startsWith('/api/') || !withBody.has(ctx.method)) {
      await parseBody(declaredJson, ctx);
      return next();
    }
    if (ctx.request.type !== '' && ctx.request.type !== 'text/plain') throw new NotJsonBodyError();
    try {
      await parseBody(undeclaredJson, ctx);
    } catch (error) {
      if ((error as { status?: number }).status === 413 || error instanceof BodyEncodingError) throw error;
      throw new NotJsonBodyError();
    }
    return next();
  };
};
