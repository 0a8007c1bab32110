import type { Query } from 'mingo';
import { isObjectId, isPlainObject, valuesAt } from './document-values.ts';
import { simplePredicate } from './fast-path.ts';
import type { SortField } from './sqlite-filter.ts';
import type { Document } from './read-store.ts';
import { mingo } from './mingo-on-demand.ts';

/**
 * Filters, sorts and projections evaluated on documents in this process, with MongoDB's semantics:
 * what the SQL of the embedded read store does not answer exactly, and the documents a projection
 * batch holds in memory. The common filters are decided directly (fast-path.ts), mingo does the rest.
 */

export type Matcher = (doc: Document) => boolean;

export const matcherOf = (filter: Document): Matcher => {
  if (Object.keys(filter).length === 0) return () => true;
  const simple = simplePredicate(filter);
  let query: Query | undefined;
  return (doc) => simple?.(doc) ?? (query ??= new (mingo().Query)(withMongoNullComparisons(filter))).test(doc);
};

const isOperators = (value: unknown): value is Document =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).some((key) => key.startsWith('$'));

/**
 * MongoDB matches null and missing values with `$gte: null` and `$lte: null`, as it does with `$eq: null`;
 * mingo matches only null there. The filter is rewritten before mingo sees it.
 */
export const withMongoNullComparisons = (filter: Document): Document =>
  Object.fromEntries(
    Object.entries(filter).map(([key, condition]) => {
      if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(condition)) return [key, condition.map(withMongoNullComparisons)];
      if (!isOperators(condition)) return [key, condition];
      const rewritten = Object.entries(condition).map(([op, operand]) =>
        (op === '$gte' || op === '$lte') && operand === null ? (['$in', [null]] as const) : ([op, operand] as const),
      );
      // Two bounds at null would give two `$in` keys: both mean the same.
      return [key, Object.fromEntries(rewritten)];
    }),
  );

/** MongoDB's order of types: null and missing, numbers, strings, documents, arrays, ..., booleans, dates. */
const typeRank = (value: unknown): number => {
  if (value === undefined || value === null) return 1;
  if (typeof value === 'number' || typeof value === 'bigint') return 2;
  if (typeof value === 'string') return 3;
  if (Array.isArray(value)) return 5;
  if (value instanceof Uint8Array) return 6;
  if (isObjectId(value)) return 7;
  if (typeof value === 'boolean') return 8;
  if (value instanceof Date) return 9;
  if (value instanceof RegExp) return 11;
  return 4;
};

const sign = (difference: number): number => (difference < 0 ? -1 : difference > 0 ? 1 : 0);

/** Compares two values as MongoDB orders them (BSON comparison order). */
export const compareValues = (a: unknown, b: unknown): number => {
  const rank = typeRank(a) - typeRank(b);
  if (rank !== 0) return sign(rank);
  if (a === undefined || a === null) return 0;
  if (typeof a === 'number' || typeof a === 'bigint') return sign(Number(a) - Number(b));
  if (typeof a === 'string') return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
  if (typeof a === 'boolean') return sign(Number(a) - Number(b));
  if (a instanceof Date) return sign(a.getTime() - (b as Date).getTime());
  if (Array.isArray(a)) return compareSequences(a, b as unknown[], compareValues);
  if (isObjectId(a)) return compareValues(a.toHexString(), (b as typeof a).toHexString());
  if (isPlainObject(a)) {
    // Field by field: the value's type, then the field's name, then the value.
    const compareField = ([keyA, valueA]: [string, unknown], [keyB, valueB]: [string, unknown]): number =>
      sign(typeRank(valueA) - typeRank(valueB)) || compareValues(keyA, keyB) || compareValues(valueA, valueB);
    return compareSequences(Object.entries(a), Object.entries(b as Document), compareField);
  }
  return compareValues(String(a), String(b));
};

const compareSequences = <T>(a: readonly T[], b: readonly T[], compare: (x: T, y: T) => number): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compare(a[i]!, b[i]!);
    if (order !== 0) return order;
  }
  return sign(a.length - b.length);
};

/** Sorts below null: the key of an empty array, as MongoDB sorts it. */
const emptyArray = Symbol('empty array');

/**
 * The value a document sorts by on a path: of the values the path reaches (array elements expanded),
 * the smallest ascending and the largest descending, as MongoDB does.
 */
const sortKey = (doc: Document, segments: readonly string[], direction: 1 | -1): unknown => {
  const values = valuesAt(doc, segments).map((value) => (Array.isArray(value) && value.length === 0 ? emptyArray : value));
  let key: unknown = values[0];
  for (const value of values.slice(1)) {
    if (direction * compareKeys(value, key) < 0) key = value;
  }
  return key;
};

const compareKeys = (a: unknown, b: unknown): number => {
  if (a === emptyArray || b === emptyArray) return a === b ? 0 : a === emptyArray ? -1 : 1;
  return compareValues(a, b);
};

/** A stable sort on the fields, MongoDB's way. */
export const sortDocuments = (docs: Document[], fields: readonly SortField[]): Document[] => {
  if (fields.length === 0) return docs;
  const paths = fields.map(([path, direction]) => ({ segments: path.split('.'), direction }));
  const keyed = docs.map((doc) => ({ doc, keys: paths.map(({ segments, direction }) => sortKey(doc, segments, direction)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < paths.length; i++) {
      const order = compareKeys(a.keys[i], b.keys[i]);
      if (order !== 0) return order * paths[i]!.direction;
    }
    return 0;
  });
  return keyed.map(({ doc }) => doc);
};

export const projectDocuments = (docs: Document[], projection: Document | undefined): Document[] => {
  if (projection === undefined || Object.keys(projection).length === 0) return docs;
  const pick = topLevelPick(projection);
  if (pick === undefined) return mingo().find(docs, {}, projection).all() as Document[];
  return docs.map((doc) => {
    const picked: Document = {};
    for (const field in doc) if (pick.has(field) === pick.including) picked[field] = doc[field];
    return picked;
  });
};

/**
 * A projection that only includes (or only excludes) top-level fields, as the set of fields kept or
 * dropped, in the documents' own field order as MongoDB keeps it; undefined for any other projection.
 */
const topLevelPick = (projection: Document): (Set<string> & { including: boolean }) | undefined => {
  const included = new Set<string>();
  const excluded = new Set<string>();
  for (const [field, value] of Object.entries(projection)) {
    if (field.includes('.') || field.startsWith('$')) return undefined;
    if (value === 1 || value === true) included.add(field);
    else if (value === 0 || value === false) excluded.add(field);
    else return undefined;
  }
  if (included.size > 0) {
    // Inclusion keeps `_id` unless it is excluded; no other field may be excluded beside inclusions.
    if (excluded.size > (excluded.has('_id') ? 1 : 0)) return undefined;
    if (!excluded.has('_id')) included.add('_id');
    return Object.assign(included, { including: true });
  }
  return Object.assign(excluded, { including: false });
};

/** Runs a pipeline on documents; `$lookup` and friends read the other collections through `collectionOf`. */
export const aggregateDocuments = <R extends Document>(docs: Document[], pipeline: Document[], collectionOf: (name: string) => Document[]): R[] =>
  new (mingo().Aggregator)(pipeline, { collectionResolver: collectionOf }).run<R>(docs);
