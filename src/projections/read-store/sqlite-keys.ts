import { isObjectId, isPlainObject } from './document-values.ts';
import type { Document } from './read-store.ts';

/**
 * Index keys of the embedded read store. Each indexed path of a collection has a column holding the
 * value the path reaches in the document, encoded so that SQLite compares and orders keys as MongoDB
 * orders values: missing and null as NULL, then numbers, then strings (SQLite's own order of those
 * classes), then booleans and dates as BLOBs whose first byte ranks them after strings. A value
 * MongoDB compares by other rules (an array anywhere on the path, an embedded document, anything
 * else) is marked irregular instead: queries touching such a path are answered by evaluating the
 * filter on the documents (the multikey table narrows equalities), never by trusting the key.
 */

export type SqlKey = null | number | string | Buffer;

export const irregularKey = Buffer.from([0xff]);
const falseKey = Buffer.from([0xf0]);
const trueKey = Buffer.from([0xf1]);
const dateTag = 0xf8;

/** SQL literals bounding each class of keys, for range conditions that stay within MongoDB's type brackets. */
export const keyBrackets = {
  number: { low: null, high: "''" },
  string: { low: "''", high: "X''" },
  boolean: { low: "X'F0'", high: "X'F2'" },
  date: { low: "X'F8'", high: "X'F9'" },
} as const;

export type KeyClass = keyof typeof keyBrackets;

const dateKey = (date: Date): Buffer => {
  const key = Buffer.alloc(9);
  key[0] = dateTag;
  // Offset so that instants before 1970 order before the later ones as unsigned bytes.
  key.writeBigUInt64BE(BigInt(date.getTime()) + 2n ** 63n, 1);
  return key;
};

/** The key of a value compared as a whole (a number, string, boolean, date or null); undefined for any other value. */
export const scalarKey = (value: unknown): SqlKey | undefined => {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'number':
      // JSON keeps no NaN or infinity: the stored document holds null there.
      return Number.isFinite(value) ? value : null;
    case 'string':
      return value;
    case 'boolean':
      return value ? trueKey : falseKey;
    default:
      return value instanceof Date && !Number.isNaN(value.getTime()) ? dateKey(value) : undefined;
  }
};

/** The class of a scalar operand, for range bounds; undefined for null and non-scalars. */
export const keyClassOf = (value: unknown): KeyClass | undefined => {
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : undefined;
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (value instanceof Date && !Number.isNaN(value.getTime())) return 'date';
  return undefined;
};

/** The key a dotted path has in a document (split into its segments). */
export const pathKey = (doc: Document, segments: readonly string[]): SqlKey => {
  let value: unknown = doc;
  for (const segment of segments) {
    if (Array.isArray(value)) return irregularKey;
    if (!isPlainObject(value)) return null;
    value = value[segment];
  }
  if (Array.isArray(value) || isObjectId(value)) return irregularKey;
  const key = scalarKey(value);
  return key === undefined ? irregularKey : key;
};

export const isIrregular = (key: SqlKey): boolean => Buffer.isBuffer(key) && key.length === 1 && key[0] === 0xff;

/** The value a regular, non-null key was made from. */
export const valueOfKey = (key: number | string | Buffer): number | string | boolean | Date => {
  if (!Buffer.isBuffer(key)) return key;
  if (key.length === 1 && (key[0] === 0xf0 || key[0] === 0xf1)) return key[0] === 0xf1;
  if (key.length === 9 && key[0] === dateTag) return new Date(Number(key.readBigUInt64BE(1) - 2n ** 63n));
  throw new Error(`Not the key of a value: ${key.toString('hex')}`);
};

/**
 * The scalar keys a document holds along a path that crosses arrays: every element reachable, and
 * null wherever a branch finds nothing. A superset of what MongoDB would match by equality: the filter
 * is evaluated on each candidate afterwards.
 */
export const multikeyValues = (doc: Document, segments: readonly string[]): SqlKey[] => {
  const keys = new Map<string, SqlKey>();
  const add = (key: SqlKey | undefined) => {
    if (key === undefined) return;
    keys.set(Buffer.isBuffer(key) ? `b${key.toString('hex')}` : `${typeof key}${String(key)}`, key);
  };
  const collect = (value: unknown, index: number): void => {
    if (index === segments.length) {
      if (Array.isArray(value)) for (const element of value) add(scalarKey(element));
      else add(scalarKey(value));
      return;
    }
    const segment = segments[index]!;
    if (Array.isArray(value)) {
      add(null);
      for (const element of value) if (isPlainObject(element)) collect(element[segment], index + 1);
      if (/^\d+$/.test(segment)) collect(value[Number(segment)], index + 1);
    } else if (isPlainObject(value)) collect(value[segment], index + 1);
    else add(null);
  };
  collect(doc, 0);
  return [...keys.values()];
};
