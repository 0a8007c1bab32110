import type { Middleware } from 'koa';
import { instantPattern, zonedTimestamp, type ZonedTimestamp } from '../../time/zoned-timestamp.ts';

/**
 * One timestamp format in every JSON answer: each instant a presenter puts in a body (`created_at`,
 * `prepared_at`, a SAV's `created_at`, ...) is written in the planning time zone with its offset
 * (time/zoned-timestamp.ts), whichever way the event or read model stored it (`…Z`, `…+02:00`, with
 * milliseconds or not). Done once here rather than in each presenter, so that no answer, and no field
 * added later, can slip back to another format. Dates (`YYYY-MM-DD`) and times (`HH:MM`) are left as
 * they are; bodies that are not JSON values (PDFs, files, pre-rendered JSON text) are not touched.
 */

const isPlainObject = (value: object): value is Record<string, unknown> => Object.getPrototypeOf(value) === Object.prototype;

const isPlainValue = (body: unknown): body is object => Array.isArray(body) || (typeof body === 'object' && body !== null && isPlainObject(body));

/**
 * The value with each instant rewritten: a copy of every array and object on the way to one, the same
 * value where there is none (a presenter's object may be cached: it is never changed).
 */
export const rewriteInstants = (value: unknown, format: ZonedTimestamp): unknown => {
  if (typeof value === 'string') return instantPattern.test(value) ? format(value) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const rewritten = rewriteInstants(item, format);
      if (rewritten !== item) (copy ??= value.slice())[index] = rewritten;
    }
    return copy ?? value;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = value[key];
    const rewritten = rewriteInstants(item, format);
    // A spread copy defines its keys, `__proto__` included, as data: the assignment then sets that key.
    if (rewritten !== item) (copy ??= { ...value })[key] = rewritten;
  }
  return copy ?? value;
};

export const zonedTimestamps = (timezone: string): Middleware => {
  // Constructing the formatter checks the zone name once, at start-up.
  const format = zonedTimestamp(timezone);
  return async (ctx, next) => {
    await next();
    // A new value: a presenter's object may be cached.
    if (isPlainValue(ctx.body)) ctx.body = rewriteInstants(ctx.body, format);
  };
};
