import { Aggregator, find, Query } from 'mingo';
import { isEqual } from 'mingo/util';
import { simplePredicate } from './memory-fast-path.ts';
import { isIndexable, MemoryIndex, valueKey } from './memory-index.ts';
import {
  assertReplacement,
  assertUpdateOperators,
  isOperatorObject,
  newObjectIdHex,
  replacementDocument,
  updatedDocument,
  upsertedDocument,
} from './memory-update.ts';
import {
  DuplicateKeyError,
  type BulkUpdateOne,
  type CreateIndexOptions,
  type Cursor,
  type DeleteResult,
  type Document,
  type Filter,
  type FindOptions,
  type IndexSpecification,
  type InsertOneResult,
  type ReadCollection,
  type Sort,
  type UpdateFilter,
  type UpdateOptions,
  type UpdateResult,
} from './read-store.ts';

/**
 * A collection of the embedded read store. Filters, update operators and pipelines are evaluated by
 * mingo; this class keeps the documents by `_id`, maintains the indexes and gives each write
 * MongoDB's single-document atomicity: the new version is computed on a copy and stored only once
 * every unique index accepts it. Stored documents never leave the collection: callers get copies.
 */
export class MemoryCollection implements ReadCollection<Document> {
  private readonly docs = new Map<string, Document>();
  private indexes: MemoryIndex[] = [];
  private created = false;

  constructor(
    readonly collectionName: string,
    /** Copies of another collection's documents, for `$lookup` and friends. */
    private readonly documentsOf: (name: string) => Document[],
  ) {}

  /** Like MongoDB, a collection exists from its first write or index until it is dropped. */
  get exists(): boolean {
    return this.created;
  }

  snapshot(): Document[] {
    return [...this.docs.values()].map((doc) => structuredClone(doc));
  }

  drop(): void {
    this.docs.clear();
    this.indexes = [];
    this.created = false;
  }

  async findOne(filter: Filter<Document>, options: FindOptions = {}): Promise<Document | null> {
    return this.query(filter, { ...options, limit: 1 })[0] ?? null;
  }

  find(filter: Filter<Document>, options: FindOptions = {}): Cursor<Document> {
    return { toArray: async () => this.query(filter, options) };
  }

  async countDocuments(filter: Filter<Document> = {}): Promise<number> {
    return this.matching(filter).length;
  }

  async insertOne(doc: Document): Promise<InsertOneResult> {
    // The driver assigns a missing _id on the caller's document too.
    doc._id ??= newObjectIdHex();
    this.write(undefined, { _id: doc._id, ...structuredClone(doc) });
    return { acknowledged: true, insertedId: doc._id };
  }

  async updateOne(filter: Filter<Document>, update: UpdateFilter<Document>, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.update(filter, update, options.upsert ?? false, 1);
  }

  async updateMany(filter: Filter<Document>, update: UpdateFilter<Document>, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.update(filter, update, options.upsert ?? false);
  }

  async replaceOne(filter: Filter<Document>, replacement: Document, options: UpdateOptions = {}): Promise<UpdateResult> {
    assertReplacement(replacement);
    const [current] = this.matching(filter, 1);
    if (!current && !options.upsert) return updateResult(0, 0);
    const next = replacementDocument(filter as Document, current, replacement);
    if (!current) return this.insertUpserted(next);
    if (isEqual(next, current)) return updateResult(1, 0);
    this.write(current, next);
    return updateResult(1, 1);
  }

  async deleteOne(filter: Filter<Document>): Promise<DeleteResult> {
    return this.delete(filter, 1);
  }

  async deleteMany(filter: Filter<Document>): Promise<DeleteResult> {
    return this.delete(filter);
  }

  async bulkWrite(operations: BulkUpdateOne<Document>[], options: { ordered?: boolean } = {}): Promise<unknown> {
    const result = { ok: 1, insertedCount: 0, matchedCount: 0, modifiedCount: 0, deletedCount: 0, upsertedCount: 0, upsertedIds: {} as Record<number, unknown> };
    let failure: unknown;
    operations.forEach(({ updateOne: { filter, update, upsert } }, i) => {
      if (failure !== undefined && options.ordered !== false) return;
      try {
        const outcome = this.update(filter, update, upsert ?? false, 1);
        result.matchedCount += outcome.matchedCount;
        result.modifiedCount += outcome.modifiedCount;
        result.upsertedCount += outcome.upsertedCount;
        if (outcome.upsertedCount) result.upsertedIds[i] = outcome.upsertedId;
      } catch (error) {
        failure ??= error;
      }
    });
    if (failure !== undefined) throw failure;
    return result;
  }

  aggregate<R extends Document = Document>(pipeline: Document[]): Cursor<R> {
    return {
      toArray: async () => {
        // A leading $match is answered through the indexes; the rest of the pipeline runs on copies.
        const [first, ...rest] = pipeline;
        const leadingMatch = first && Object.hasOwn(first, '$match');
        const source = leadingMatch ? this.matching(first.$match as Document) : [...this.docs.values()];
        const aggregator = new Aggregator(leadingMatch ? rest : pipeline, { collectionResolver: this.documentsOf });
        return aggregator.run<R>(source.map((doc) => structuredClone(doc)));
      },
    };
  }

  async createIndex(spec: IndexSpecification, options: CreateIndexOptions = {}): Promise<string> {
    this.created = true;
    const fields = Object.keys(spec);
    if (fields.length === 1 && fields[0] === '_id') return '_id_';
    const name = options.name ?? Object.entries(spec).map(([field, direction]) => `${field}_${direction}`).join('_');
    if (this.indexes.some((index) => index.name === name)) return name;
    const index = new MemoryIndex(name, spec, options.unique ?? false, options.sparse ?? false);
    for (const [id, doc] of this.docs) {
      const entry = index.entryOf(doc);
      const duplicate = index.duplicateOf(entry, id);
      if (duplicate) throw new DuplicateKeyError(this.collectionName, duplicate);
      index.add(entry, id);
    }
    this.indexes.push(index);
    return name;
  }

  private query(filter: Filter<Document>, { sort, skip, limit, projection }: FindOptions): Document[] {
    if (projection === undefined || Object.keys(projection).length === 0) {
      // Filtered here (fast path for simple filters); mingo only orders the matches.
      const bound = sort === undefined && limit ? (skip ?? 0) + Math.abs(limit) : Infinity;
      let found = this.matching(filter, bound);
      if (sort !== undefined) found = find(found, {}).sort(sortSpec(sort)).all() as Document[];
      const start = skip ?? 0;
      return found.slice(start, limit ? start + Math.abs(limit) : undefined).map((doc) => structuredClone(doc));
    }
    const cursor = find(this.candidates(filter), filter as Document, projection);
    if (sort !== undefined) cursor.sort(sortSpec(sort));
    if (skip) cursor.skip(skip);
    if (limit) cursor.limit(Math.abs(limit));
    return cursor.all().map((doc) => structuredClone(doc as Document));
  }

  /** The stored documents matching the filter, at most `limit` of them. */
  private matching(filter: Filter<Document>, limit = Infinity): Document[] {
    const simple = simplePredicate(filter as Document);
    let query: Query | undefined;
    const found: Document[] = [];
    for (const doc of this.candidates(filter)) {
      if (found.length >= limit) break;
      const matched = simple?.(doc) ?? (query ??= new Query(filter as Document)).test(doc);
      if (matched) found.push(doc);
    }
    return found;
  }

  /** The documents that can match: looked up by `_id` or through the narrowest usable index, else all. */
  private candidates(filter: Filter<Document>): Iterable<Document> {
    const ids = equalityValues(filter, '_id');
    if (ids) return [...new Set(ids.map(valueKey))].flatMap((id) => this.docs.get(id) ?? []);
    let narrowest: Set<string> | undefined;
    for (const index of this.indexes) {
      const values = equalityValues(filter, index.fields[0]!);
      const found = values && index.lookup(values);
      if (found && (!narrowest || found.size < narrowest.size)) narrowest = found;
    }
    return narrowest ? [...narrowest].map((id) => this.docs.get(id)!) : this.docs.values();
  }

  private update(filter: Filter<Document>, update: UpdateFilter<Document>, upsert: boolean, limit?: number): UpdateResult {
    assertUpdateOperators(update);
    const targets = this.matching(filter, limit);
    if (targets.length === 0) {
      return upsert ? this.insertUpserted(upsertedDocument(filter as Document, update as Document)) : updateResult(0, 0);
    }
    let modified = 0;
    for (const current of targets) {
      const next = updatedDocument(current, update as Document, filter as Document);
      if (!next) continue;
      this.write(current, next);
      modified += 1;
    }
    return updateResult(targets.length, modified);
  }

  private insertUpserted(doc: Document): UpdateResult {
    this.write(undefined, doc);
    return { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: doc._id };
  }

  private delete(filter: Filter<Document>, limit?: number): DeleteResult {
    const targets = this.matching(filter, limit);
    for (const doc of targets) {
      const id = valueKey(doc._id);
      for (const index of this.indexes) index.remove(index.entryOf(doc), id);
      this.docs.delete(id);
    }
    return { acknowledged: true, deletedCount: targets.length };
  }

  /** Stores `next` in place of `previous` (or as a new document), or throws and changes nothing. */
  private write(previous: Document | undefined, next: Document): void {
    const id = valueKey(next._id);
    if (!previous && this.docs.has(id)) throw new DuplicateKeyError(this.collectionName, { _id: next._id });
    const entries = this.indexes.map((index) => index.entryOf(next));
    this.indexes.forEach((index, i) => {
      const duplicate = index.duplicateOf(entries[i], id);
      if (duplicate) throw new DuplicateKeyError(this.collectionName, duplicate);
    });
    this.indexes.forEach((index, i) => {
      if (previous) index.remove(index.entryOf(previous), id);
      index.add(entries[i], id);
    });
    this.docs.set(id, next);
    this.created = true;
  }
}

/** The values a filter requires a top-level field to equal (plain value, $eq or $in), if an index can find them all. */
function equalityValues(filter: Filter<Document>, field: string): unknown[] | undefined {
  if (!Object.hasOwn(filter, field)) return undefined;
  const condition: unknown = (filter as Document)[field];
  let values: unknown[] | undefined = [condition];
  if (isOperatorObject(condition)) {
    values = Object.hasOwn(condition, '$eq') ? [condition.$eq] : Array.isArray(condition.$in) ? condition.$in : undefined;
  }
  return values?.every(isIndexable) ? values : undefined;
}

function sortSpec(sort: Sort): Record<string, 1 | -1> {
  const directions = new Set<unknown>([1, -1, 'asc', 'desc', 'ascending', 'descending']);
  let entries: (readonly [string, unknown])[];
  if (typeof sort === 'string') entries = [[sort, 1]];
  else if (sort instanceof Map) entries = [...sort];
  else if (Array.isArray(sort)) {
    const pair = sort.length === 2 && typeof sort[0] === 'string' && directions.has(sort[1]);
    entries = pair ? [sort as [string, unknown]] : sort.map((item: unknown) => (typeof item === 'string' ? [item, 1] : (item as [string, unknown])));
  } else entries = Object.entries(sort as Document);
  return Object.fromEntries(entries.map(([field, direction]) => [field, direction === -1 || direction === 'desc' || direction === 'descending' ? -1 : 1]));
}

function updateResult(matchedCount: number, modifiedCount: number): UpdateResult {
  return { acknowledged: true, matchedCount, modifiedCount, upsertedCount: 0, upsertedId: null };
}
