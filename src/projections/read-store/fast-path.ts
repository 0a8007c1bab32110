import { isEqual } from 'mingo/util';
import { isPlainObject } from './document-values.ts';
import type { Document } from './read-store.ts';

/**
 * The filters and updates that projections issue on every event (`{_id, _position: {$lt: p}}`, `$set`
 * of a few paths, `$push`/`$addToSet` of one value), evaluated directly. mingo evaluates anything
 * else: its public API copies its whole operator table on every call, which dominated the cost of a
 * replay. Each function answers `undefined` when the case is not one it decides exactly as MongoDB
 * does (arrays where a filter expects a scalar, missing containers, conflicting paths, ...), and the
 * caller then asks mingo: the fast path is an optimisation, never a second set of semantics.
 */

type Scalar = string | number | boolean;
type Comparison = '$eq' | '$ne' | '$lt' | '$lte' | '$gt' | '$gte';
type Condition =
  { kind: 'equals'; value: Scalar | null } | { kind: 'compare'; operators: [Comparison, string | number][] } | { kind: 'in'; values: Set<Scalar | null> };

/** undefined: this document needs the general evaluator. */
export type SimplePredicate = (doc: Document) => boolean | undefined;

const comparisons = new Set<string>(['$eq', '$ne', '$lt', '$lte', '$gt', '$gte']);

const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

const conditionOf = (value: unknown): Condition | undefined => {
  if (value === null || isScalar(value)) return { kind: 'equals', value };
  if (!isPlainObject(value)) return undefined;
  const operators = Object.entries(value);
  if (operators.length === 0) return undefined;
  // `$in` of scalars alone (a batch's `_id: {$in: [...]}`): one of them, null for missing or null.
  if (operators.length === 1 && operators[0]![0] === '$in') {
    const values = operators[0]![1];
    return Array.isArray(values) && values.every((entry) => entry === null || isScalar(entry))
      ? { kind: 'in', values: new Set(values as (Scalar | null)[]) }
      : undefined;
  }
  const ok = operators.every(
    ([op, operand]) => comparisons.has(op) && (typeof operand === 'string' || (typeof operand === 'number' && Number.isFinite(operand))),
  );
  return ok ? { kind: 'compare', operators: operators as [Comparison, string | number][] } : undefined;
};

const compare = (op: Comparison, actual: unknown, operand: string | number): boolean => {
  // MongoDB compares within a type bracket: a value of another type matches only $ne.
  if (typeof actual !== typeof operand) return op === '$ne';
  const a = actual as string | number;
  switch (op) {
    case '$eq':
      return a === operand;
    case '$ne':
      return a !== operand;
    case '$lt':
      return a < operand;
    case '$lte':
      return a <= operand;
    case '$gt':
      return a > operand;
    case '$gte':
      return a >= operand;
  }
};

const test = (condition: Condition, actual: unknown): boolean | undefined => {
  // An array or an embedded document has MongoDB's element-wise and whole-value rules: the general path.
  if (actual !== undefined && actual !== null && !isScalar(actual)) return undefined;
  if (condition.kind === 'equals') return condition.value === null ? actual === undefined || actual === null : actual === condition.value;
  if (condition.kind === 'in') return condition.values.has((actual ?? null) as Scalar | null);
  return condition.operators.every(([op, operand]) => (actual === undefined || actual === null ? op === '$ne' : compare(op, actual, operand)));
};

/** A predicate for a filter of top-level fields compared with scalars, or undefined for any other filter. */
export function simplePredicate(filter: Document): SimplePredicate | undefined {
  const fields: [string, Condition][] = [];
  for (const [field, value] of Object.entries(filter)) {
    if (field.startsWith('$') || field.includes('.')) return undefined;
    const condition = conditionOf(value);
    if (!condition) return undefined;
    fields.push([field, condition]);
  }
  return (doc) => {
    for (const [field, condition] of fields) {
      const matched = test(condition, doc[field]);
      if (matched !== true) return matched;
    }
    return true;
  };
}

const canonicalIndex = /^(0|[1-9]\d*)$/;

type Step = { container: Document | unknown[]; key: string | number };

/** The container and key a path ends at in `doc`, copying each container on the way; undefined if the path does not exist up to its last step. */
const locate = (doc: Document, path: string, copied: Set<object>): Step | undefined => {
  // Most paths are a top-level field of the document itself.
  if (!path.includes('.')) return path === '' || path.startsWith('$') ? undefined : { container: doc, key: path };
  const segments = path.split('.');
  let container: Document | unknown[] = doc;
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i]!;
    if (segment === '' || segment.startsWith('$')) return undefined;
    let key: string | number = segment;
    if (Array.isArray(container)) {
      if (!canonicalIndex.test(segment) || Number(segment) >= container.length) return undefined;
      key = Number(segment);
    }
    if (i === segments.length - 1) return { container, key };
    const child: unknown = (container as Record<string | number, unknown>)[key];
    if (!Array.isArray(child) && !isPlainObject(child)) return undefined;
    let copy = child as Document | unknown[];
    if (!copied.has(child)) {
      copy = Array.isArray(child) ? [...child] : { ...child };
      copied.add(copy);
      (container as Record<string | number, unknown>)[key] = copy;
    }
    container = copy;
  }
  return undefined;
};

/** Two operators on one path, or on a path and a path inside it: MongoDB refuses the update. */
const conflicting = (paths: string[], operators: number): boolean => {
  // The fields of one operator are the keys of one object: distinct, and without dots none is inside another.
  if (operators === 1 && !paths.some((path) => path.includes('.'))) return false;
  const all = new Set(paths);
  if (all.size !== paths.length) return true;
  return paths.some((path) => {
    for (let dot = path.indexOf('.'); dot !== -1; dot = path.indexOf('.', dot + 1)) if (all.has(path.slice(0, dot))) return true;
    return false;
  });
};

const supported = new Set(['$set', '$setOnInsert', '$inc', '$max', '$min', '$push', '$addToSet']);

const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * `current` after `$set`, `$inc` (the read models' counters), `$max`/`$min` of numbers (the position a
 * document has seen), `$push` and `$addToSet` of single values (`$setOnInsert` applies only when
 * `inserting`): the next version, `null` when nothing changes, or undefined when the update is not one
 * this function decides. Copy on write: `current` and every container on a changed path are copied,
 * never changed, so versions may share what did not change. The values given are stored as they are,
 * not copied: the stores serialise a document when they write it, and a projection's batch hands out
 * its documents read-only.
 *
 * How the copy is made matters to V8 (Node 20): a spread (`{ ...current }`) is a cheap copy that stays
 * fast while only its existing fields change, but an object grown field by field turns slow (copying it
 * then costs microseconds). So the fields new to the document are gathered apart and joined in one step.
 */
export function simpleUpdate(current: Document, update: Document, inserting: boolean): Document | null | undefined {
  const entries = Object.entries(update);
  if (!entries.every(([op, fields]) => supported.has(op) && isPlainObject(fields))) return undefined;
  const paths = entries.flatMap(([, fields]) => Object.keys(fields as Document));
  if (paths.some((path) => path === '_id' || path.startsWith('_id.')) || conflicting(paths, entries.length)) return undefined;
  const next: Document = { ...current };
  const added: Document = {};
  let adding = false;
  const copied = new Set<object>([next]);
  let changed = false;
  for (const [op, fields] of entries) {
    if (op === '$setOnInsert' && !inserting) continue;
    for (const [path, value] of Object.entries(fields as Document)) {
      let slot: Record<string | number, unknown>;
      let key: string | number;
      if (!path.includes('.') && !Object.hasOwn(next, path)) {
        if (path === '' || path.startsWith('$')) return undefined;
        slot = added;
        key = path;
      } else {
        const step = locate(next, path, copied);
        if (!step) return undefined;
        slot = step.container as Record<string | number, unknown>;
        key = step.key;
      }
      const existing = slot[key];
      if (op === '$set' || op === '$setOnInsert') {
        if (existing !== undefined && isEqual(existing, value)) continue;
        slot[key] = value;
      } else if (op === '$inc') {
        // By a non-zero number, on a number or a missing field; anything else (and MongoDB's no-op of 0) is the general path's.
        if (!isFiniteNumber(value) || value === 0 || (existing !== undefined && !isFiniteNumber(existing))) return undefined;
        slot[key] = (existing ?? 0) + value;
      } else if (op === '$max' || op === '$min') {
        // Numbers on a number or a missing field; any other type order is the general path's.
        if (!isFiniteNumber(value) || (existing !== undefined && !isFiniteNumber(existing))) return undefined;
        if (existing !== undefined && (op === '$max' ? value <= existing : value >= existing)) continue;
        slot[key] = value;
      } else {
        // $push / $addToSet of one value; modifiers ($each, $slice, ...) and non-array targets are the general path's.
        if (isPlainObject(value) && Object.keys(value).some((name) => name.startsWith('$'))) return undefined;
        if (existing !== undefined && !Array.isArray(existing)) return undefined;
        const list = (existing ?? []) as unknown[];
        if (op === '$addToSet' && list.some((item) => isEqual(item, value))) continue;
        slot[key] = [...list, value];
      }
      if (slot === added) adding = true;
      changed = true;
    }
  }
  if (!changed) return null;
  if (!adding) return next;
  // A new document (an upsert: only its `_id` so far) is one literal; otherwise the few new fields join it.
  const keys = Object.keys(next);
  if (keys.length === 1 && keys[0] === '_id') return { _id: next._id, ...added };
  return Object.assign(next, added);
}
