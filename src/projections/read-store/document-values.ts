import type { Document } from './read-store.ts';

/**
 * How MongoDB sees the values inside a document, for the parts of the port evaluated in this process
 * (the SQLite adapter's keys, the projections' batches): identity of values, and what a dotted path reaches.
 */

/**
 * A string equal for values MongoDB treats as equal keys: same type and value, null and missing alike.
 * Embedded documents compare with their key order, as in MongoDB.
 */
export function valueKey(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return `s:${value}`;
  if (typeof value === 'number' || typeof value === 'bigint') return `n:${value}`;
  if (typeof value === 'boolean') return `b:${value}`;
  if (value instanceof Date) return `d:${value.getTime()}`;
  if (isObjectId(value)) return `o:${value.toHexString()}`;
  return `j:${JSON.stringify(value)}`;
}

export function isObjectId(value: unknown): value is { toHexString(): string } {
  return typeof value === 'object' && value !== null && (value as { _bsontype?: unknown })._bsontype === 'ObjectId';
}

export function isPlainObject(value: unknown): value is Document {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The values a dotted path reaches, descending into arrays as MongoDB's indexes do: an array at the
 * end contributes its elements (an empty one, itself); undefined stands for a missing value.
 */
export function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    if (head === undefined) return value.length === 0 ? [value] : value;
    const positional = /^\d+$/.test(head) ? valuesAt(value[Number(head)], rest) : [];
    const found = [...positional, ...value.filter(isPlainObject).flatMap((item) => valuesAt(item, path))];
    return found.length === 0 ? [undefined] : found;
  }
  if (head === undefined) return [value];
  return isPlainObject(value) ? valuesAt(value[head], rest) : [undefined];
}

/** The `_id` values a filter pins down (a plain value, `$eq` or `$in`), or undefined when it does not. */
export function idsOf(filter: Document): unknown[] | undefined {
  if (!Object.hasOwn(filter, '_id')) return undefined;
  const condition: unknown = filter._id;
  if (!isPlainObject(condition) || !Object.keys(condition).some((key) => key.startsWith('$'))) {
    return condition instanceof RegExp ? undefined : [condition];
  }
  const keys = Object.keys(condition);
  if (keys.length !== 1) return undefined;
  if (keys[0] === '$eq') return condition.$eq instanceof RegExp ? undefined : [condition.$eq];
  if (keys[0] === '$in' && Array.isArray(condition.$in) && !condition.$in.some((value) => value instanceof RegExp)) return condition.$in;
  return undefined;
}

/**
 * A deep copy of a document or value. Documents are JSON-like: numbers, strings, booleans, null,
 * dates, arrays and plain objects, copied here directly; anything else goes to `structuredClone`,
 * whose fixed cost per call (microseconds) would otherwise dominate copying a small value.
 */
export function cloneValue<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneValue) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (!isPlainObject(value)) return structuredClone(value);
  // A spread, then only existing fields replaced: V8 keeps such a copy a fast object (built field by
  // field, an object of more than a dozen fields turns slow to read, copy and serialise).
  const copy: Document = { ...value };
  for (const key in copy) {
    const nested = copy[key];
    if (nested !== null && typeof nested === 'object') copy[key] = cloneValue(nested);
  }
  return copy as T;
}
