import { randomBytes } from 'node:crypto';
import { setValue } from 'mingo/util';
import { mingoUpdater } from './mingo-on-demand.ts';
import { simpleUpdate } from './fast-path.ts';
import { cloneValue, isPlainObject, valueKey } from './document-values.ts';
import type { Document } from './read-store.ts';

/**
 * How an update document turns into the next version of a stored document, the MongoDB way. The
 * operators are mingo's; what is here is what mingo leaves to the server: $setOnInsert, the
 * document an upsert starts from, and `_id` handling. Every function works on copies.
 */

export function assertUpdateOperators(update: Document): void {
  const keys = Object.keys(update);
  if (keys.length === 0 || keys.some((key) => !key.startsWith('$'))) throw new Error('Update document requires atomic operators');
}

export function assertReplacement(replacement: Document): void {
  if (Object.keys(replacement).some((key) => key.startsWith('$'))) throw new Error('Replacement document must not contain atomic operators');
}

/** The document after the update, or undefined when the update changes nothing ($setOnInsert never applies here). */
export function updatedDocument(current: Document, update: Document, filter: Document): Document | undefined {
  const { $setOnInsert: _insertOnly, ...operators } = update;
  const modifier = withoutUnchangedId(operators, current._id);
  const simple = simpleUpdate(current, modifier, false);
  if (simple !== undefined) return simple ?? undefined;
  const next = cloneValue(current);
  // The filter matters only to the positional `$` operator; compiling it for every write would be wasted.
  const condition = usesPositional(modifier) ? filter : undefined;
  return mingoUpdater().update(next, modifier, undefined, condition, { cloneMode: 'deep' }).length ? next : undefined;
}

/** The document an upsert inserts: the filter's equality fields, then every operator, $setOnInsert included. */
export function upsertedDocument(filter: Document, update: Document): Document {
  const { $setOnInsert, ...operators } = update;
  const conflict = $setOnInsert && Object.keys(operators.$set ?? {}).find((path) => Object.hasOwn($setOnInsert, path));
  if (conflict) throw new Error(`Updating the path '${conflict}' would create a conflict at '${conflict}'`);
  const equalities = equalityFields(filter);
  const setsId = Object.hasOwn(operators.$set ?? {}, '_id') || Object.hasOwn($setOnInsert ?? {}, '_id');
  if (!setsId) {
    // The usual upsert of a projection: built once, `_id` first, without going through mingo.
    const doc: Document = { _id: equalities._id === undefined ? newObjectIdHex() : cloneValue(equalities._id) };
    for (const [path, value] of Object.entries(equalities)) if (path !== '_id') setValue(doc, path, cloneValue(value));
    const simple = simpleUpdate(doc, update, true);
    if (simple !== undefined) return simple ?? doc;
  }
  const $set: Document = { ...operators.$set, ...$setOnInsert };
  const doc: Document = {};
  for (const [path, value] of Object.entries(equalities)) setValue(doc, path, cloneValue(value));
  // mingo refuses any write to _id; MongoDB accepts one on insert.
  if ($set._id !== undefined) {
    if (doc._id !== undefined && valueKey(doc._id) !== valueKey($set._id)) throw immutableIdError();
    doc._id = cloneValue($set._id);
    delete $set._id;
  }
  mingoUpdater().update(doc, Object.keys($set).length ? { ...operators, $set } : operators, undefined, undefined, { cloneMode: 'deep' });
  return { _id: doc._id ?? newObjectIdHex(), ...doc };
}

/** The replacement stored in place of `current`, or inserted by an upsert (under the filter's `_id` if it has none). */
export function replacementDocument(filter: Document, current: Document | undefined, replacement: Document): Document {
  if (current && replacement._id !== undefined && valueKey(replacement._id) !== valueKey(current._id)) throw immutableIdError();
  const _id = current?._id ?? replacement._id ?? equalityFields(filter)._id ?? newObjectIdHex();
  return { _id, ...cloneValue(replacement) };
}

/** The fields an upsert copies from its filter: equalities at the top level and inside $and, as MongoDB does. */
function equalityFields(filter: Document): Document {
  const fields: Document = {};
  for (const [path, condition] of Object.entries(filter)) {
    if (path === '$and' && Array.isArray(condition)) for (const clause of condition) Object.assign(fields, equalityFields(clause));
    else if (path.startsWith('$') || condition instanceof RegExp) continue;
    else if (!isOperatorObject(condition)) fields[path] = condition;
    else if (Object.hasOwn(condition, '$eq')) fields[path] = condition.$eq;
  }
  return fields;
}

export function isOperatorObject(value: unknown): value is Document {
  return isPlainObject(value) && Object.keys(value).some((key) => key.startsWith('$'));
}

/** MongoDB accepts setting `_id` to the value it already has; mingo refuses any write to it. */
function withoutUnchangedId(operators: Document, id: unknown): Document {
  const $set: unknown = operators.$set;
  if (!isPlainObject($set) || !Object.hasOwn($set, '_id') || valueKey($set._id) !== valueKey(id)) return operators;
  const { _id: _unchanged, ...rest } = $set;
  return { ...operators, $set: rest };
}

function usesPositional(operators: Document): boolean {
  return Object.values(operators).some((fields) => isPlainObject(fields) && Object.keys(fields).some((path) => path.split('.').includes('$')));
}

function immutableIdError(): Error {
  return Object.assign(new Error("Performing an update on the path '_id' would modify the immutable field '_id'"), { code: 66 });
}

const processUnique = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

/** An ObjectId-shaped id: seconds, a per-process random part and a counter, as 24 hex digits. */
export function newObjectIdHex(): string {
  counter = (counter + 1) % 0x1000000;
  const seconds = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + processUnique + counter.toString(16).padStart(6, '0');
}
