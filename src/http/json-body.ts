import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import coBody from 'co-body';
import type { Middleware, ParameterizedContext } from 'koa';
import { processBodyBudget, type BodyBudget } from './body-budget.ts';
import { jsonShapeProblem, type JsonShapeLimits } from './json-shape.ts';
import { saveStream, type SavedStream } from '../files/save-stream.ts';
import { BodyBudgetExhaustedError, BodyEncodingError, BodyShapeError, NotFileBodyError, NotJsonBodyError } from './body-errors.ts';

/** Methods whose body the API reads. */
const withBody = new Set(['POST', 'PUT', 'PATCH']);

const mib = 1024 * 1024;

/**
 * What any parsed body may hold: real payloads nest 4 to 6 levels (an order's lines and their
 * marketplace fields, GraphQL variables) and hold a few thousand values (an order of 200 lines with
 * 30 fields each: 6,000).
 */
export const bodyShapeLimits: JsonShapeLimits = { maxDepth: 32, maxValues: 20_000 };

/** A path as the routers match it: any case, trailing slash optional. */
const routeKey = (path: string): string => path.toLowerCase().replace(/\/$/, '');

/** A body that is a file, streamed to disk as it arrives (never held in memory): where it is, and what it was. */
export type ReceivedUpload = SavedStream & { file: string; declaredType: string };

export type UploadRoutes = {
  /** The POST routes whose body is a file (an image or a video), not JSON. */
  paths: readonly RegExp[];
  /** Where a file being received is written (removed once its request has answered: a route keeps it under another name). */
  directory: string;
  maxBytes: number;
};

export type JsonBodyOptions = {
  /** Routes whose bodies may carry files (data URLs) and their limit in MiB; every other body is limited to 1 MiB. */
  largerLimits?: Readonly<Record<string, number>>;
  uploads?: UploadRoutes;
  /** The bytes all bodies held at once may take (the process's budget by default). */
  budget?: BodyBudget;
};

/** Declared types a file body may come as: its content decides what it is (files/media-type.ts). */
const fileTypes = /^(image\/|video\/|application\/octet-stream$)/;

/**
 * A file body: written to disk chunk by chunk within `maxBytes`, never inflated (a file is sent as it
 * is), its SHA-256 computed on the way (what a retry under the same Idempotency-Key is compared by).
 * Removed once the request has answered; the route keeps it by linking it under its own name.
 */
const receiveUpload = async (ctx: ParameterizedContext, next: () => Promise<unknown>, uploads: UploadRoutes, budget: BodyBudget): Promise<void> => {
  const declaredType = ctx.request.type;
  if (!fileTypes.test(declaredType) || encodingOf(ctx) !== 'identity') throw new NotFileBodyError();
  const length = Number(ctx.get('Content-Length'));
  if (Number.isSafeInteger(length) && length > uploads.maxBytes) throw tooLarge(uploads.maxBytes);
  // On disk, not in memory: a chunk at a time.
  const release = budget.reserve(64 * 1024);
  if (!release) throw new BodyBudgetExhaustedError();
  await mkdir(uploads.directory, { recursive: true });
  const file = path.join(uploads.directory, `.incoming-${randomUUID()}`);
  try {
    const saved = await saveStream(ctx.req, file, uploads.maxBytes, () => tooLarge(uploads.maxBytes));
    ctx.state.upload = { ...saved, file, declaredType } satisfies ReceivedUpload;
    ctx.request.body = { file: { sha256: saved.sha256, size: saved.size, type: declaredType } };
    await next();
  } finally {
    release();
    await rm(file, { force: true });
  }
};

/** The body's Content-Encoding as the client named it (shortened: it is echoed in the answer). */
const encodingOf = (ctx: ParameterizedContext): string => (ctx.get('Content-Encoding').trim().toLowerCase() || 'identity').slice(0, 40);

/** A 413 as the parser raises it, with the route's limit. */
const tooLarge = (limitBytes: number): Error =>
  Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large', limit: limitBytes });

/**
 * Reads the body as text, inflating gzip, deflate and br bodies, and stops reading as soon as it (or,
 * compressed, what it inflates to) passes `limitBytes`: nothing beyond the limit is ever buffered. A
 * body that is not what its encoding says (zlib fails without a status) or an encoding it does not
 * know (its 415) is the client's mistake, answered as such.
 */
const readBody = async (ctx: ParameterizedContext, limitBytes: number): Promise<string> => {
  try {
    return await coBody.text(ctx.req, { limit: limitBytes, encoding: 'utf8' });
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    const encoding = encodingOf(ctx);
    if (status === 415 && /^Unsupported Content-Encoding/.test((error as Error).message)) throw new BodyEncodingError('unsupported', encoding);
    if (status === undefined && encoding !== 'identity') throw new BodyEncodingError('undecodable', encoding);
    throw error;
  }
};

/** JSON as the API takes it: an object or an array (or nothing: `{}`), within the shape limits. */
const parseJson = (text: string): unknown => {
  const start = text.search(/\S/);
  if (start < 0) return {};
  const first = text[start];
  if (first !== '{' && first !== '[') throw Object.assign(new SyntaxError('not a JSON object or array'), { status: 400, expose: true });
  const problem = jsonShapeProblem(text, bodyShapeLimits);
  if (problem) throw new BodyShapeError(problem);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw Object.assign(error as Error, { status: 400, expose: true });
  }
};

/**
 * The API's bodies are JSON, read after the request is authenticated (a request without a valid
 * token is refused before a byte of its body is read). Older clients send JSON without a
 * Content-Type, or as text/plain: it is read as JSON all the same. A body declared as JSON but
 * malformed is refused with 400 by the error handler; a body that is not JSON at all (another media
 * type, or undeclared text that does not parse) with 415, in the group's envelope, rather than a
 * misleading field error further on. GraphQL (outside /api) reads its own media types: its body is
 * kept as text (`ctx.request.rawBody`), parsed only when declared JSON.
 *
 * What one body may cost is bounded three ways: its bytes (inflated) by its route's limit, checked
 * while it streams; its shape (depth, values) before it is parsed; and, with every other body held
 * at the same time, by the process's budget.
 */
export const jsonBody = (options: JsonBodyOptions = {}): Middleware => {
  const budget = options.budget ?? processBodyBudget;
  const larger = new Map(Object.entries(options.largerLimits ?? {}).map(([path, limitMib]) => [routeKey(path), limitMib * mib]));
  const { uploads } = options;
  return async (ctx, next) => {
    // Read once: a router's guard and an application's own parser may both stand before a route.
    if (!withBody.has(ctx.method) || ctx.request.rawBody !== undefined || ctx.state.upload !== undefined) return next();
    if (uploads?.paths.some((path) => path.test(ctx.path))) return receiveUpload(ctx, next, uploads, budget);
    const limit = larger.get(routeKey(ctx.path)) ?? mib;
    const api = ctx.path.startsWith('/api/');
    // null: no body; 'json': declared JSON; false: anything else, or no Content-Type.
    const declared = ctx.request.is('json');
    if (api && declared === false && ctx.request.type !== '' && ctx.request.type !== 'text/plain') throw new NotJsonBodyError();
    const length = Number(ctx.get('Content-Length'));
    const known = Number.isSafeInteger(length) && length >= 0 && encodingOf(ctx) === 'identity';
    if (known && length > limit) throw tooLarge(limit);
    const release = budget.reserve(known ? length : limit);
    if (!release) throw new BodyBudgetExhaustedError();
    try {
      const text = await readBody(ctx, limit);
      ctx.request.rawBody = text;
      if (api && declared === false) {
        try {
          ctx.request.body = parseJson(text);
        } catch (error) {
          if (error instanceof BodyShapeError) throw error;
          throw new NotJsonBodyError();
        }
      } else if (declared !== false) {
        ctx.request.body = parseJson(text);
      }
      await next();
    } finally {
      release();
    }
  };
};

declare module 'koa' {
  interface Request {
    /** The parsed JSON body (json-body.ts); `{}` when the request has none. */
    body?: unknown;
    /** The body as received, inflated (json-body.ts). */
    rawBody?: string;
  }
}
