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

const isPlainValue = (body: unknown): body is object =>
  Array.isArray(body) || (typeof body === 'object' && body !== null && Object.getPrototypeOf(body) === Object.prototype);

const rewrite = (value: unknown, format: ZonedTimestamp): unknown => {
  if (typeof value === 'string') return instantPattern.test(value) ? format(value) : value;
  if (Array.isArray(value)) return value.map((item) => rewrite(item, format));
  if (isPlainValue(value)) {
    // Entries, not assignments: a key such as `__proto__` stays data.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewrite(item, format)]));
  }
  return value;
};

export const zonedTimestamps = (timezone: string): Middleware => {
  // Constructing the formatter checks the zone name once, at start-up.
  const format = zonedTimestamp(timezone);
  return async (ctx, next) => {
    await next();
    // A new value: a presenter's object may be cached.
    if (isPlainValue(ctx.body)) ctx.body = rewrite(ctx.body, format);
  };
};
