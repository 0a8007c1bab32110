import type { JsonValue } from '../store/event-store.ts';

/**
 * The canonical JSON text of a value (what a leaf of the log's tree is made of, leaf.ts): every
 * object's keys sorted by their UTF-16 code units, at every depth; no white space; strings and
 * numbers as `JSON.stringify` writes them; a key whose value is undefined left out, an undefined item
 * of an array written null. RFC 8785's form for the values events hold (integers, strings, booleans,
 * null); a number that is not finite is refused.
 *
 * Made for every event while a tree is built from the log, hence two ways with one result: the
 * objects put in key order (only those that were not are copied) and handed to the native
 * `JSON.stringify`; and, for a value with a key beginning with a digit, written out part by part,
 * since JavaScript lists the keys that are array indices ("9", "10") first, by number, whatever the
 * order they were set in.
 */
export const canonicalJson = (value: JsonValue | undefined): string => {
  const ordered = inKeyOrder(value);
  if (ordered !== unorderable) return JSON.stringify(ordered ?? null);
  const parts: string[] = [];
  writeOut(value, parts);
  return parts.join('');
};

const unorderable = Symbol('a key beginning with a digit');

const notFinite = () => new TypeError('A leaf holds finite numbers only');

const beginsWithDigit = (key: string): boolean => {
  const first = key.charCodeAt(0);
  return first >= 48 && first <= 57;
};

/** Most objects of the log are not in key order: they keep the order of their schema. */
const inOrder = (keys: readonly string[]): boolean => keys.every((key, i) => i === 0 || keys[i - 1]! < key);

/** The value with every object's keys in order, the objects already so kept as they are; `unorderable` when a key begins with a digit. */
const inKeyOrder = (value: JsonValue | undefined): JsonValue | undefined | typeof unorderable => {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw notFinite();
    return value;
  }
  if (Array.isArray(value)) {
    let copy: JsonValue[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = inKeyOrder(value[i]);
      if (item === unorderable) return unorderable;
      if (item !== value[i]) (copy ??= value.slice())[i] = item ?? null;
    }
    return copy ?? value;
  }
  const keys = Object.keys(value);
  const sorted = inOrder(keys) ? keys : [...keys].sort();
  let changed = sorted !== keys;
  const items: (JsonValue | undefined)[] = [];
  for (const key of sorted) {
    if (beginsWithDigit(key)) return unorderable;
    const item = inKeyOrder(value[key]);
    if (item === unorderable) return unorderable;
    if (item !== value[key]) changed = true;
    items.push(item);
  }
  if (!changed) return value;
  // Without a prototype, a `__proto__` key (which JSON.parse makes an own property) stays a key.
  const copy: { [key: string]: JsonValue } = Object.create(null) as { [key: string]: JsonValue };
  sorted.forEach((key, i) => {
    if (items[i] !== undefined) copy[key] = items[i]!;
  });
  return copy;
};

/** The same text, written out part by part. */
const writeOut = (value: JsonValue | undefined, parts: string[]): void => {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw notFinite();
    parts.push(JSON.stringify(value ?? null));
    return;
  }
  if (Array.isArray(value)) {
    parts.push('[');
    value.forEach((item, i) => {
      if (i > 0) parts.push(',');
      writeOut(item, parts);
    });
    parts.push(']');
    return;
  }
  parts.push('{');
  let first = true;
  for (const key of Object.keys(value).sort()) {
    if (value[key] === undefined) continue;
    parts.push(first ? '' : ',', JSON.stringify(key), ':');
    first = false;
    writeOut(value[key], parts);
  }
  parts.push('}');
};
