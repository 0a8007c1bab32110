import type { Middleware } from 'koa';
import { z } from 'zod';
import type { HttpError } from '../http/http-error.ts';

type RawQuery = Record<string, string | string[] | undefined>;

/**
 * The query string as every client writes arrays: `name[]=a&name[]=b` (PHP), `name[0]=a&name[1]=b`,
 * `name=a&name=b`: each becomes `name`, an array when it has several values (a comma-separated value
 * stays one string: the schema of a list splits it). Other keys are kept as they are.
 */
export const legacyQuery = (query: RawQuery): Record<string, string | string[]> => {
  const normalized: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const name = /^([^[\]]+)\[\d*\]$/.exec(key)?.[1] ?? key;
    const values = [...(normalized[name] === undefined ? [] : [normalized[name]].flat()), ...[value].flat()];
    normalized[name] = values.length === 1 && !key.endsWith(']') ? values[0]! : values;
  }
  return normalized;
};

/**
 * The query parameters of a route: the known ones parsed by `shape`; an unknown one is refused
 * (400), not ignored, so that a misspelt filter does not silently answer something else.
 * `unknown` words the refusal in the group's language.
 */
export const queryParameters = <T extends z.ZodRawShape>(shape: T, unknown: (keys: readonly string[], known: readonly string[]) => string) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknown(issue.keys, Object.keys(shape)) : undefined),
  });

/**
 * The guard of a route that takes no query parameter: any one is refused (400) rather than ignored,
 * like the unknown parameters of the routes that take some. `refuse` builds the group's 400.
 */
export const noQueryParameters =
  (refuse: (keys: readonly string[]) => HttpError): Middleware =>
  async (ctx, next) => {
    const keys = Object.keys(ctx.query);
    if (keys.length > 0) throw refuse(keys);
    await next();
  };
