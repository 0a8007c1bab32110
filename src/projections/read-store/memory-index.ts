import type { Document, IndexSpecification } from './read-store.ts';

/**
 * One secondary index of the embedded read store. It maps the value of the first indexed field to
 * the documents holding it (to narrow equality queries), and, when unique, the whole key to its
 * document (to refuse duplicates). Keys follow MongoDB: an array contributes one key per element,
 * a missing field is indexed as null.
 */
export class MemoryIndex {
  readonly fields: string[];
  private readonly byFirstValue = new Map<string, Set<string>>();
  private readonly byKey = new Map<string, string>();

  constructor(
    readonly name: string,
    spec: IndexSpecification,
    readonly unique: boolean,
    readonly sparse: boolean,
  ) {
    this.fields = Object.keys(spec);
  }

  /** Ids of the documents whose first indexed field holds one of these (non-null scalar) values. */
  lookup(values: unknown[]): Set<string> {
    if (values.length === 1) return this.byFirstValue.get(valueKey(values[0])) ?? new Set();
    const ids = new Set<string>();
    for (const value of values) for (const id of this.byFirstValue.get(valueKey(value)) ?? []) ids.add(id);
    return ids;
  }

  /** What a document contributes to this index; undefined when a sparse index leaves it out. */
  entryOf(doc: Document): IndexEntry | undefined {
    const values = this.fields.map((field) => valuesAt(doc, field.split('.')));
    if (this.sparse && values.every((list) => list.every((value) => value === undefined))) return undefined;
    const wholeKeys = this.unique
      ? values.reduce<unknown[][]>((partial, list) => partial.flatMap((key) => list.map((value) => [...key, value])), [[]])
      : [];
    return { firstValues: [...new Set(values[0]!.map(valueKey))], wholeKeys };
  }

  /** The key another document already holds in this unique index, if the entry would duplicate it. */
  duplicateOf(entry: IndexEntry | undefined, id: string): Document | undefined {
    for (const key of entry?.wholeKeys ?? []) {
      const holder = this.byKey.get(wholeKey(key));
      if (holder !== undefined && holder !== id) return Object.fromEntries(this.fields.map((field, i) => [field, key[i]]));
    }
    return undefined;
  }

  add(entry: IndexEntry | undefined, id: string): void {
    if (!entry) return;
    for (const value of entry.firstValues) {
      const ids = this.byFirstValue.get(value) ?? new Set<string>();
      ids.add(id);
      this.byFirstValue.set(value, ids);
    }
    for (const key of entry.wholeKeys) this.byKey.set(wholeKey(key), id);
  }

  remove(entry: IndexEntry | undefined, id: string): void {
    if (!entry) return;
    for (const value of entry.firstValues) {
      const ids = this.byFirstValue.get(value);
      ids?.delete(id);
      if (ids?.size === 0) this.byFirstValue.delete(value);
    }
    for (const key of entry.wholeKeys) if (this.byKey.get(wholeKey(key)) === id) this.byKey.delete(wholeKey(key));
  }
}

export type IndexEntry = {
  /** Keys of the values of the first indexed field. */
  firstValues: string[];
  /** For a unique index, every combination of the fields' values the document is indexed under. */
  wholeKeys: unknown[][];
};

const wholeKey = (values: unknown[]): string => values.map(valueKey).join('\u0000');

/**
 * A string equal for values an index treats as equal: same type and value, null and missing alike.
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

/** Whether an equality on this value can be answered from an index (null also matches missing fields, so it is scanned). */
export function isIndexable(value: unknown): boolean {
  return (
    typeof value === 'string' ||
    (typeof value === 'number' && !Number.isNaN(value)) ||
    typeof value === 'boolean' ||
    (value instanceof Date && !Number.isNaN(value.getTime())) ||
    isObjectId(value)
  );
}

function isObjectId(value: unknown): value is { toHexString(): string } {
  return typeof value === 'object' && value !== null && (value as { _bsontype?: unknown })._bsontype === 'ObjectId';
}

/** The values a dotted path reaches, descending into arrays as MongoDB does; undefined stands for missing. */
function valuesAt(value: unknown, path: string[]): unknown[] {
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

export function isPlainObject(value: unknown): value is Document {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
