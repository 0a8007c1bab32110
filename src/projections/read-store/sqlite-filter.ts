import { isPlainObject, valueKey } from './document-values.ts';
import { keyBrackets, keyClassOf, scalarKey, type SqlKey } from './sqlite-keys.ts';
import type { Document, Sort } from './read-store.ts';

/**
 * MongoDB filters and sorts as SQL over the key columns of the embedded read store (sqlite-keys.ts).
 * A condition is translated only where SQL answers exactly what MongoDB would: on an indexed path whose
 * keys are all regular, for the operators below. Anything else is left out of the SQL, which then
 * selects a superset of the matches (`exact: false`), and the caller evaluates the whole filter on
 * those rows. A path with irregular keys (arrays) still narrows equalities through the multikey table.
 */

export type Clause = {
  /** null: no condition (every row). */
  sql: string | null;
  params: SqlKey[];
  /** The SQL selects exactly the matching documents. */
  exact: boolean;
};

export type KeyPaths = {
  /** The quoted key column of an indexed path, `_id` included; undefined when the path has none. */
  columnOf(path: string): string | undefined;
  /** Whether some document holds an irregular key on this indexed path. */
  irregular(path: string): boolean;
  /** The quoted multikey table of the collection. */
  multikeyTable: string;
};

const everything: Clause = { sql: null, params: [], exact: false };
const nothing: Clause = { sql: '0', params: [], exact: true };

const and = (clauses: Clause[]): Clause => {
  const conditions = clauses.filter((clause) => clause.sql !== null);
  return {
    sql: conditions.length === 0 ? null : conditions.map((clause) => `(${clause.sql})`).join(' AND '),
    params: conditions.flatMap((clause) => clause.params),
    exact: clauses.every((clause) => clause.exact),
  };
};

const isOperatorObject = (value: unknown): value is Document =>
  isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((key) => key.startsWith('$'));

export const translateFilter = (filter: Document, paths: KeyPaths): Clause => {
  const clauses: Clause[] = [];
  const seek = Array.isArray(filter.$or) ? keysetSeek(filter.$or as Document[], paths) : undefined;
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$comment') continue;
    if (key === '$and' && Array.isArray(condition)) clauses.push(and(condition.map((clause: Document) => translateFilter(clause, paths))));
    else if (key === '$or' && Array.isArray(condition)) {
      const alternatives = or(condition.map((clause: Document) => translateFilter(clause, paths)));
      clauses.push(
        seek && alternatives.sql !== null
          ? { ...alternatives, sql: `${seek.sql} AND (${alternatives.sql})`, params: [...seek.params, ...alternatives.params] }
          : alternatives,
      );
    } else if (key.startsWith('$')) clauses.push(everything);
    // A bound beside the alternatives on their first path, the way they go (a cursor's day), is one SQLite's planner would seek instead of the row value.
    else clauses.push(translatePath(key, condition, paths, seek?.firstPath === key ? seek.direction : undefined));
  }
  // An empty filter selects every document, exactly.
  return clauses.length === 0 ? { sql: null, params: [], exact: true } : and(clauses);
};

const or = (branches: Clause[]): Clause => {
  if (branches.length === 0 || branches.some((branch) => branch.sql === null))
    return { ...everything, exact: branches.length > 0 && branches.every((b) => b.exact) };
  return {
    sql: branches.map((branch) => `(${branch.sql})`).join(' OR '),
    params: branches.flatMap((branch) => branch.params),
    exact: branches.every((branch) => branch.exact),
  };
};

/** A path's condition as operators: a plain value is an equality. */
const operatorsOf = (condition: unknown): [string, unknown][] => (isOperatorObject(condition) ? Object.entries(condition) : [['$eq', condition]]);

/** A branch's condition on one path: an equality, or one bound. */
type Condition = { path: string; op: '$eq' | '$gt' | '$gte' | '$lt' | '$lte'; operand: unknown };

const conditionOf = (path: string, condition: unknown): Condition | undefined => {
  const operators = operatorsOf(condition);
  if (operators.length !== 1) return undefined;
  const [op, operand] = operators[0]!;
  return ['$eq', '$gt', '$gte', '$lt', '$lte'].includes(op) ? { path, op: op as Condition['op'], operand } : undefined;
};

type Direction = '>' | '<';

/**
 * The alternatives of a page after a cursor, `a > x OR (a = x AND b > y) OR (a = x AND b = y AND c > z)`,
 * also as the row value `(a, b, c) > (x, y, z)`: with it SQLite seeks to the cursor in an index on
 * (…, a, b, c), where the alternatives alone seek to `a >= x` and test every key from there (a walk
 * that lengthens with the keys equal on `a`). Every document the alternatives match satisfies the row
 * value (which admits keys of other types besides), so it is added to them, never put in their place.
 * Undefined unless the alternatives have that shape (in any order; the last bound may be inclusive),
 * on regular key columns, with non-null scalar operands.
 */
const keysetSeek = (branches: readonly Document[], paths: KeyPaths): { sql: string; params: SqlKey[]; firstPath: string; direction: Direction } | undefined => {
  if (branches.length < 2 || !branches.every(isPlainObject)) return undefined;
  const ordered = [...branches].sort((a, b) => Object.keys(a).length - Object.keys(b).length);
  const bounds: Condition[] = [];
  // Each alternative: the bounds of the ones before it as equalities, and a bound of its own on a new path.
  const boundOn = new Map<string, string>();
  for (const [i, branch] of ordered.entries()) {
    const conditions = Object.entries(branch).map(([path, condition]) => (path.startsWith('$') ? undefined : conditionOf(path, condition)));
    if (conditions.length !== i + 1 || conditions.some((condition) => condition === undefined)) return undefined;
    const bound = (conditions as Condition[]).find((condition) => condition.op !== '$eq');
    const equalities = (conditions as Condition[]).filter((condition) => condition.op === '$eq');
    if (!bound || equalities.length !== i || boundOn.has(bound.path) || equalities.some(({ path, operand }) => boundOn.get(path) !== valueKey(operand)))
      return undefined;
    boundOn.set(bound.path, valueKey(bound.operand));
    bounds.push(bound);
  }
  const last = bounds.length - 1;
  const greater = bounds[0]!.op.startsWith('$g');
  const strict = greater ? '$gt' : '$lt';
  if (!bounds.every(({ op }, i) => op === strict || (i === last && op === `${strict}e`))) return undefined;
  const columns: string[] = [];
  const params: SqlKey[] = [];
  for (const { path, operand } of bounds) {
    const column = paths.columnOf(path);
    const key = scalarKey(operand);
    if (column === undefined || paths.irregular(path) || key === undefined || key === null) return undefined;
    columns.push(column);
    params.push(key);
  }
  const direction: Direction = greater ? '>' : '<';
  const comparison = `${direction}${bounds[last]!.op.endsWith('e') ? '=' : ''}`;
  return { sql: `(${columns.join(', ')}) ${comparison} (${columns.map(() => '?').join(', ')})`, params, firstPath: bounds[0]!.path, direction };
};

/** `unindexed`: bounds of this direction are tested on each row rather than sought (SQL's unary `+`, which changes no value). */
const translatePath = (path: string, condition: unknown, paths: KeyPaths, unindexed?: Direction): Clause => {
  const operators = operatorsOf(condition);
  if (path === '_id') {
    // The identity column answers equalities on `_id` exactly, whatever the value's type.
    const ids = idEquality(operators);
    if (ids) return ids;
  }
  const column = paths.columnOf(path);
  if (column === undefined) return everything;
  if (paths.irregular(path)) return and(operators.map(([op, operand]) => multikeyCondition(path, column, op, operand, paths.multikeyTable)));
  return and(operators.map(([op, operand]) => regularCondition(column, op, operand, unindexed)));
};

const idEquality = (operators: [string, unknown][]): Clause | undefined => {
  if (operators.length !== 1) return undefined;
  const [op, operand] = operators[0]!;
  if (op === '$eq' && !(operand instanceof RegExp)) return { sql: 'id = ?', params: [valueKey(operand)], exact: true };
  if (op === '$in' && Array.isArray(operand) && !operand.some((value) => value instanceof RegExp)) {
    if (operand.length === 0) return nothing;
    return { sql: `id IN (${operand.map(() => '?').join(', ')})`, params: operand.map(valueKey), exact: true };
  }
  return undefined;
};

/** Conditions on a path whose keys are all regular: scalars, null or missing. */
const regularCondition = (column: string, op: string, operand: unknown, unindexed?: Direction): Clause => {
  switch (op) {
    case '$eq': {
      if (operand instanceof RegExp) return everything;
      const key = scalarKey(operand);
      // A document or an array equals nothing here: no key on this path is one.
      if (key === undefined) return nothing;
      return key === null ? { sql: `${column} IS NULL`, params: [], exact: true } : { sql: `${column} = ?`, params: [key], exact: true };
    }
    case '$ne': {
      if (operand instanceof RegExp) return everything;
      const key = scalarKey(operand);
      if (key === undefined) return { sql: null, params: [], exact: true };
      return key === null ? { sql: `${column} IS NOT NULL`, params: [], exact: true } : { sql: `${column} IS NOT ?`, params: [key], exact: true };
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return range(column, op, operand, unindexed);
    case '$in':
    case '$nin': {
      if (!Array.isArray(operand) || operand.some((value) => value instanceof RegExp)) return everything;
      const keys = operand.map(scalarKey).filter((key): key is SqlKey => key !== undefined);
      const withNull = keys.includes(null);
      const values = keys.filter((key) => key !== null);
      const list = values.length === 0 ? null : `${column} IN (${values.map(() => '?').join(', ')})`;
      if (op === '$in') {
        const alternatives = [...(list ? [list] : []), ...(withNull ? [`${column} IS NULL`] : [])];
        return alternatives.length === 0 ? nothing : { sql: alternatives.join(' OR '), params: values, exact: true };
      }
      if (withNull) return { sql: list ? `${column} IS NOT NULL AND NOT (${list})` : `${column} IS NOT NULL`, params: values, exact: true };
      return list ? { sql: `${column} IS NULL OR NOT (${list})`, params: values, exact: true } : { sql: null, params: [], exact: true };
    }
    default:
      return everything;
  }
};

/** A comparison matches values of the operand's own type only, as in MongoDB. */
const range = (column: string, op: string, operand: unknown, unindexed?: Direction): Clause => {
  if (operand === null) return op === '$gte' || op === '$lte' ? { sql: `${column} IS NULL`, params: [], exact: true } : nothing;
  const type = keyClassOf(operand);
  if (type === undefined) return everything;
  const bounds = keyBrackets[type];
  const comparison = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op as '$gt'];
  // A term bounding the column from the side of `unindexed` (the operand's, or its type's bracket) is tested on each row.
  const term = (side: Direction) => `${side === unindexed ? '+' : ''}${column}`;
  const lower = op.startsWith('$g');
  const bracket = lower ? `${term('<')} < ${bounds.high}` : bounds.low === null ? null : `${term('>')} >= ${bounds.low}`;
  const bound = `${term(lower ? '>' : '<')} ${comparison} ?`;
  const sql = bracket ? `${bound} AND ${bracket}` : bound;
  return { sql, params: [scalarKey(operand)!], exact: true };
};

/** On a path crossing arrays, equalities narrow through the multikey table; the filter decides. */
const multikeyCondition = (path: string, column: string, op: string, operand: unknown, multikeyTable: string): Clause => {
  const operands = op === '$eq' ? [operand] : op === '$in' && Array.isArray(operand) ? operand : undefined;
  const keys = operands?.map(scalarKey);
  if (!keys || keys.length === 0 || keys.some((key) => key === undefined)) return everything;
  const values = (keys as SqlKey[]).filter((key) => key !== null);
  const withNull = values.length < keys.length;
  const regular = [...(values.length ? [`${column} IN (${values.map(() => '?').join(', ')})`] : []), ...(withNull ? [`${column} IS NULL`] : [])];
  const listed = [...(values.length ? [`key IN (${values.map(() => '?').join(', ')})`] : []), ...(withNull ? ['key IS NULL'] : [])];
  return {
    sql: `${regular.join(' OR ')} OR rid IN (SELECT rid FROM ${multikeyTable} WHERE path = ? AND (${listed.join(' OR ')}))`,
    params: [...values, path, ...values],
    exact: false,
  };
};

export type SortField = [path: string, direction: 1 | -1];

/** A sort specification in any of the driver's forms, as a list of fields and directions. */
export const sortFields = (sort: Sort): SortField[] => {
  const directions = new Set<unknown>([1, -1, 'asc', 'desc', 'ascending', 'descending']);
  let entries: (readonly [string, unknown])[];
  if (typeof sort === 'string') entries = [[sort, 1]];
  else if (sort instanceof Map) entries = [...sort];
  else if (Array.isArray(sort)) {
    const pair = sort.length === 2 && typeof sort[0] === 'string' && directions.has(sort[1]);
    entries = pair ? [sort as [string, unknown]] : sort.map((item: unknown) => (typeof item === 'string' ? [item, 1] : (item as [string, unknown])));
  } else entries = Object.entries(sort as Document);
  return entries.map(([field, direction]) => [field, direction === -1 || direction === 'desc' || direction === 'descending' ? -1 : 1]);
};

/** ORDER BY over the key columns, or undefined when some field has no column or irregular keys. */
export const translateSort = (fields: readonly SortField[], paths: KeyPaths): string | undefined => {
  const terms: string[] = [];
  for (const [path, direction] of fields) {
    const column = paths.columnOf(path);
    if (column === undefined || paths.irregular(path)) return undefined;
    terms.push(`${column} ${direction === 1 ? 'ASC' : 'DESC'}`);
  }
  return terms.join(', ');
};
