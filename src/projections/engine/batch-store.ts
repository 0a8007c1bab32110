import { matcherOf, projectDocuments, sortDocuments, aggregateDocuments } from '../read-store/document-query.ts';
import {
  assertReplacement,
  assertUpdateOperators,
  newObjectIdHex,
  replacementDocument,
  updatedDocument,
  upsertedDocument,
} from '../read-store/document-update.ts';
import { idsOf, valueKey } from '../read-store/document-values.ts';
import { sortFields } from '../read-store/sqlite-filter.ts';
import {
  DuplicateKeyError,
  type BulkUpdateOne,
  type Cursor,
  type DeleteResult,
  type Document,
  type DocumentWrites,
  type Filter,
  type FindOptions,
  type InsertOneResult,
  type ReadCollection,
  type ReadStore,
  type UpdateFilter,
  type UpdateOptions,
  type UpdateResult,
} from '../read-store/read-store.ts';

/**
 * One projection's view of the read store while it applies a batch of events: the documents it reads
 * are loaded once from the store and kept here, every event of the batch is applied to them in memory,
 * and the documents it changed are handed back (`writes()`) to be stored in one go with the checkpoint.
 * The port's semantics are kept: a query sees the batch's own changes (the store's matches are merged
 * with the documents held here, which decide), `_id` collisions are refused as the store would.
 * Unique secondary indexes are checked by the store when the batch is written.
 */
export class BatchStore implements ReadStore {
  private readonly collections = new Map<string, BatchCollection>();
  /** What each change replaced, newest last: a failed event's changes are undone, the batch's earlier ones kept. */
  private readonly undo: Undo[] = [];

  constructor(
    private readonly base: ReadStore,
    /** The stored collection a projection's collection name stands for (its generation). */
    private readonly stored: (name: string) => string = (name) => name,
  ) {}

  collection<T extends Document = Document>(name: string): ReadCollection<T> {
    let found = this.collections.get(name);
    if (!found) {
      found = new BatchCollection(
        name,
        this.base.collection(this.stored(name)),
        (other) => this.collection(other) as unknown as BatchCollection,
        (entry) => this.undo.push(entry),
      );
      this.collections.set(name, found);
    }
    return found as unknown as ReadCollection<T>;
  }

  /** A point to come back to with `rollbackTo`. */
  mark(): number {
    return this.undo.length;
  }

  /** Undoes every change made since `mark`. */
  rollbackTo(mark: number): void {
    while (this.undo.length > mark) this.undo.pop()!();
  }

  /** The documents changed by the batch, per stored collection. */
  writes(): DocumentWrites[] {
    return [...this.collections.values()].flatMap((collection) => collection.changes()).map((change) => ({ ...change, collection: this.stored(change.collection) }));
  }

  async listCollectionNames(): Promise<string[]> {
    throw new Error('A projection batch lists no collections');
  }

  async writeDocuments(): Promise<void> {
    throw new Error('A projection batch is written by the engine');
  }

  async dropCollection(): Promise<void> {
    throw new Error('A projection batch drops no collection');
  }

  async dropAll(): Promise<void> {
    throw new Error('A projection batch drops no collection');
  }

  async close(): Promise<void> {}
}

type Undo = () => void;

class BatchCollection implements ReadCollection<Document> {
  /** The current version of each document seen, by `_id` key; null: absent (never stored, or deleted). */
  private readonly docs = new Map<string, Document | null>();
  private readonly ids = new Map<string, unknown>();
  private readonly dirty = new Set<string>();
  /** Writes run one after the other, reads and changes of one never interleaving with another's. */
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    readonly collectionName: string,
    private readonly base: ReadCollection<Document>,
    private readonly sibling: (name: string) => BatchCollection,
    private readonly recordUndo: (undo: Undo) => void,
  ) {}

  changes(): DocumentWrites[] {
    if (this.dirty.size === 0) return [];
    const put: Document[] = [];
    const remove: unknown[] = [];
    for (const key of this.dirty) {
      const doc = this.docs.get(key);
      if (doc) put.push(doc);
      else remove.push(this.ids.get(key));
    }
    return [{ collection: this.collectionName, put, remove }];
  }

  async findOne(filter: Filter<Document>, options: FindOptions = {}): Promise<Document | null> {
    return (await this.query(filter as Document, { ...options, limit: 1 }))[0] ?? null;
  }

  find(filter: Filter<Document>, options: FindOptions = {}): Cursor<Document> {
    return { toArray: () => this.query(filter as Document, options) };
  }

  async countDocuments(filter: Filter<Document> = {}): Promise<number> {
    return (await this.matching(filter as Document)).length;
  }

  async insertOne(doc: Document): Promise<InsertOneResult> {
    doc._id ??= newObjectIdHex();
    const stored = { _id: doc._id, ...structuredClone(doc) };
    await this.serially(() => this.insert(stored));
    return { acknowledged: true, insertedId: doc._id };
  }

  updateOne(filter: Filter<Document>, update: UpdateFilter<Document>, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.serially(() => this.update(filter as Document, update as Document, options.upsert ?? false, 1));
  }

  updateMany(filter: Filter<Document>, update: UpdateFilter<Document>, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.serially(() => this.update(filter as Document, update as Document, options.upsert ?? false));
  }

  replaceOne(filter: Filter<Document>, replacement: Document, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.serially(async () => {
      assertReplacement(replacement);
      const [current] = await this.matching(filter as Document, 1);
      if (!current && !options.upsert) return updateResult(0, 0);
      const next = replacementDocument(filter as Document, current, replacement);
      if (!current) {
        await this.insert(next);
        return upserted(next._id);
      }
      if (JSON.stringify(next) === JSON.stringify(current)) return updateResult(1, 0);
      this.set(next);
      return updateResult(1, 1);
    });
  }

  deleteOne(filter: Filter<Document>): Promise<DeleteResult> {
    return this.serially(() => this.delete(filter as Document, 1));
  }

  deleteMany(filter: Filter<Document>): Promise<DeleteResult> {
    return this.serially(() => this.delete(filter as Document));
  }

  async bulkWrite(operations: BulkUpdateOne<Document>[]): Promise<unknown> {
    for (const { updateOne } of operations) await this.updateOne(updateOne.filter, updateOne.update, { upsert: updateOne.upsert ?? false });
    return { ok: 1 };
  }

  aggregate<R extends Document = Document>(pipeline: Document[]): Cursor<R> {
    return {
      toArray: async () => {
        const [first, ...rest] = pipeline;
        const leadingMatch = first !== undefined && Object.hasOwn(first, '$match');
        const source = await this.matching(leadingMatch ? (first.$match as Document) : {});
        const others = new Map<string, Document[]>();
        for (const stage of pipeline) {
          const from = (stage.$lookup as { from?: unknown } | undefined)?.from;
          if (typeof from === 'string' && !others.has(from)) others.set(from, await this.sibling(from).matching({}));
        }
        return aggregateDocuments<R>(structuredClone(source), leadingMatch ? rest : pipeline, (name) => structuredClone(others.get(name) ?? []));
      },
    };
  }

  async createIndex(): Promise<string> {
    throw new Error('Indexes are created by a projection\'s setup, not while it applies events');
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const done = this.writing.then(work);
    this.writing = done.catch(() => undefined);
    return done;
  }

  private async query(filter: Document, options: FindOptions): Promise<Document[]> {
    const skip = options.skip ?? 0;
    const limit = options.limit ? Math.abs(options.limit) : undefined;
    const sorted = sortDocuments(await this.matching(filter), options.sort === undefined ? [] : sortFields(options.sort));
    const page = sorted.slice(skip, limit === undefined ? undefined : skip + limit);
    // Copies: a projection changing what it read must not change the batch's documents.
    return projectDocuments(structuredClone(page), options.projection);
  }

  /**
   * The documents matching `filter`, as they stand in this batch. Documents named by `_id` are loaded
   * once; any other filter asks the store too, and the documents it finds that this batch has not
   * touched yet join those held here (the held ones are the current ones).
   */
  private async matching(filter: Document, limit = Infinity): Promise<Document[]> {
    const ids = idsOf(filter);
    let candidates: Iterable<Document | null>;
    if (ids) {
      await this.load(ids);
      candidates = [...new Set(ids.map(valueKey))].map((key) => this.docs.get(key) ?? null);
    } else {
      for (const doc of await this.base.find(filter).toArray()) {
        const key = valueKey(doc._id);
        if (!this.docs.has(key)) this.remember(key, doc);
      }
      candidates = this.docs.values();
    }
    const matches = matcherOf(filter);
    const found: Document[] = [];
    for (const doc of candidates) {
      if (found.length >= limit) break;
      if (doc && matches(doc)) found.push(doc);
    }
    return found;
  }

  private async load(ids: readonly unknown[]): Promise<void> {
    const missing = ids.filter((id) => !this.docs.has(valueKey(id)));
    if (missing.length === 0) return;
    const found = missing.length === 1
      ? [await this.base.findOne({ _id: missing[0] as never })].filter((doc): doc is Document => doc !== null)
      : await this.base.find({ _id: { $in: missing as never[] } }).toArray();
    for (const id of missing) this.remember(valueKey(id), null, id);
    for (const doc of found) this.remember(valueKey(doc._id), doc);
  }

  private remember(key: string, doc: Document | null, id: unknown = doc?._id): void {
    this.docs.set(key, doc);
    this.ids.set(key, id);
  }

  private set(doc: Document): void {
    this.change(valueKey(doc._id), doc);
  }

  private change(key: string, doc: Document | null): void {
    const previous = this.docs.get(key) ?? null;
    const wasDirty = this.dirty.has(key);
    this.recordUndo(() => {
      this.docs.set(key, previous);
      if (!wasDirty) this.dirty.delete(key);
    });
    this.docs.set(key, doc);
    if (doc) this.ids.set(key, doc._id);
    this.dirty.add(key);
  }

  private async insert(doc: Document): Promise<void> {
    await this.load([doc._id]);
    if (this.docs.get(valueKey(doc._id))) throw new DuplicateKeyError(this.collectionName, { _id: doc._id });
    this.set(doc);
  }

  private async update(filter: Document, update: Document, upsert: boolean, limit?: number): Promise<UpdateResult> {
    assertUpdateOperators(update);
    const targets = await this.matching(filter, limit);
    if (targets.length === 0) {
      if (!upsert) return updateResult(0, 0);
      const doc = upsertedDocument(filter, update);
      await this.insert(doc);
      return upserted(doc._id);
    }
    let modified = 0;
    for (const doc of targets) {
      const next = updatedDocument(doc, update, filter);
      if (!next) continue;
      this.set(next);
      modified += 1;
    }
    return updateResult(targets.length, modified);
  }

  private async delete(filter: Document, limit?: number): Promise<DeleteResult> {
    const targets = await this.matching(filter, limit);
    for (const doc of targets) this.change(valueKey(doc._id), null);
    return { acknowledged: true, deletedCount: targets.length };
  }
}

function updateResult(matchedCount: number, modifiedCount: number): UpdateResult {
  return { acknowledged: true, matchedCount, modifiedCount, upsertedCount: 0, upsertedId: null };
}

function upserted(id: unknown): UpdateResult {
  return { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: id };
}
