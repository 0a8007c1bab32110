import { matcherOf, projectDocuments, sortDocuments, aggregateDocuments } from '../read-store/document-query.ts';
import {
  assertReplacement,
  assertUpdateOperators,
  newObjectIdHex,
  replacementDocument,
  updatedDocument,
  upsertedDocument,
} from '../read-store/document-update.ts';
import { cloneValue, idsOf, isPlainObject, valueKey } from '../read-store/document-values.ts';
import { sortFields } from '../read-store/sqlite-filter.ts';
import type { WrittenKeys } from './written-keys.ts';
import { oneAtATime } from '../../concurrency/per-key-queue.ts';
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
 * Two differences, for speed: unique secondary indexes are checked by the store when the batch is
 * written, and the documents read are the batch's own, not copies: read-only (frozen under test, so
 * that a projection changing one fails its specs). Updates never change a document in place.
 */
export class BatchStore implements ReadStore {
  private readonly collections = new Map<string, BatchCollection>();
  /** What each change replaced, newest last: a failed event's changes are undone, the batch's earlier ones kept. */
  private readonly undo: Undo[] = [];

  constructor(
    private readonly base: ReadStore,
    /** The stored collection a projection's collection name stands for (its generation). */
    private readonly stored: (name: string) => string = (name) => name,
    /** What a generation built from nothing has written: a key it never wrote is not looked for. */
    private readonly written?: WrittenKeys,
  ) {}

  collection<T extends Document = Document>(name: string): ReadCollection<T> {
    let found = this.collections.get(name);
    if (!found) {
      const stored = this.stored(name);
      const written = this.written;
      found = new BatchCollection(
        name,
        this.base.collection(stored),
        (other) => this.collection(other) as unknown as BatchCollection,
        (entry) => this.undo.push(entry),
        written ? (key) => written.neverWritten(stored, key) : () => false,
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
    return [...this.collections.values()]
      .flatMap((collection) => collection.changes())
      .map((change) => ({ ...change, collection: this.stored(change.collection) }));
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

const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const nested of Object.values(value)) deepFreeze(nested);
  }
  return value;
};

/** A document handed to a projection: frozen under test (vitest), as is otherwise (freezing costs time). */
const readOnly: <T>(doc: T) => T = process.env.VITEST ? deepFreeze : (doc) => doc;

class BatchCollection implements ReadCollection<Document> {
  /** The current version of each document seen, by `_id` key; null: absent (never stored, or deleted). */
  private readonly docs = new Map<string, Document | null>();
  private readonly ids = new Map<string, unknown>();
  /** The documents the store did not hold when this batch first looked. */
  private readonly absent = new Set<string>();
  private readonly dirty = new Set<string>();
  /** Writes run one after the other, reads and changes of one never interleaving with another's. */
  private readonly writing = oneAtATime();

  constructor(
    readonly collectionName: string,
    private readonly base: ReadCollection<Document>,
    private readonly sibling: (name: string) => BatchCollection,
    private readonly recordUndo: (undo: Undo) => void,
    private readonly neverWritten: (key: string) => boolean,
  ) {}

  changes(): DocumentWrites[] {
    if (this.dirty.size === 0) return [];
    const put: Document[] = [];
    const insert: Document[] = [];
    const remove: unknown[] = [];
    for (const key of this.dirty) {
      const doc = this.docs.get(key);
      const absent = this.absent.has(key);
      if (doc) (absent ? insert : put).push(doc);
      // Created and deleted within the batch: nothing to write.
      else if (!absent) remove.push(this.ids.get(key));
    }
    return [{ collection: this.collectionName, put, insert, remove }];
  }

  async findOne(filter: Filter<Document>, options: FindOptions = {}): Promise<Document | null> {
    const byId = Object.keys(options).length === 0 ? idGuard(filter as Document) : undefined;
    if (byId) {
      // The projections' usual read: one document by `_id`, straight from what the batch holds.
      const doc = await this.byId(byId);
      return doc && readOnly(doc);
    }
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
    const stored = { _id: doc._id, ...cloneValue(doc) };
    await this.serially(() => this.insert(stored));
    return { acknowledged: true, insertedId: doc._id };
  }

  updateOne(filter: Filter<Document>, update: UpdateFilter<Document>, options: UpdateOptions = {}): Promise<UpdateResult> {
    const byId = idGuard(filter as Document);
    if (byId) return this.serially(() => this.updateById(byId, filter as Document, update as Document, options.upsert ?? false));
    return this.serially(() => this.update(filter as Document, update as Document, options.upsert ?? false, 1));
  }

  updateMany(filter: Filter<Document>, update: UpdateFilter<Document>, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.serially(() => this.update(filter as Document, update as Document, options.upsert ?? false));
  }

  replaceOne(filter: Filter<Document>, replacement: Document, options: UpdateOptions = {}): Promise<UpdateResult> {
    const byId = idGuard(filter as Document);
    if (byId?.below === undefined && byId !== undefined) return this.serially(() => this.replaceById(byId.id, replacement, options.upsert ?? false));
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
        return aggregateDocuments<R>(cloneValue(source), leadingMatch ? rest : pipeline, (name) => cloneValue(others.get(name) ?? []));
      },
    };
  }

  async createIndex(): Promise<string> {
    throw new Error("Indexes are created by a projection's setup, not while it applies events");
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    return this.writing(work);
  }

  private async query(filter: Document, options: FindOptions): Promise<Document[]> {
    const skip = options.skip ?? 0;
    const limit = options.limit ? Math.abs(options.limit) : undefined;
    const sorted = sortDocuments(await this.matching(filter), options.sort === undefined ? [] : sortFields(options.sort));
    const page = sorted.slice(skip, limit === undefined ? undefined : skip + limit);
    return projectDocuments(page.map(readOnly), options.projection);
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
    const missing: unknown[] = [];
    for (const id of ids) {
      const key = valueKey(id);
      if (this.docs.has(key)) continue;
      if (this.neverWritten(key)) {
        this.remember(key, null, id);
        this.absent.add(key);
      } else missing.push(id);
    }
    if (missing.length === 0) return;
    const found =
      missing.length === 1
        ? [await this.base.findOne({ _id: missing[0] as never })].filter((doc): doc is Document => doc !== null)
        : await this.base.find({ _id: { $in: missing as never[] } }).toArray();
    for (const id of missing) {
      this.remember(valueKey(id), null, id);
      this.absent.add(valueKey(id));
    }
    for (const doc of found) {
      this.remember(valueKey(doc._id), doc);
      this.absent.delete(valueKey(doc._id));
    }
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

  /** The document `_id` if it matches the guard (`_position` below a position), loaded once per batch. */
  private async byId({ id, below }: IdGuard): Promise<Document | null> {
    const key = valueKey(id);
    if (!this.docs.has(key)) await this.load([id]);
    const doc = this.docs.get(key) ?? null;
    if (doc === null || below === undefined) return doc;
    return typeof doc._position === 'number' && doc._position < below ? doc : null;
  }

  /**
   * `replaceOne` by `_id`: the projections' `evolveOnce`, which builds each new version itself. The
   * replacement is kept as given (its caller built it for this write); an identical one is not looked
   * for, so it counts as modified.
   */
  private async replaceById(id: unknown, replacement: Document, upsert: boolean): Promise<UpdateResult> {
    assertReplacement(replacement);
    const current = await this.byId({ id });
    if (replacement._id !== undefined && valueKey(replacement._id) !== valueKey(id)) {
      if (current) throw Object.assign(new Error("Performing an update on the path '_id' would modify the immutable field '_id'"), { code: 66 });
    }
    if (!current && !upsert) return updateResult(0, 0);
    const next = replacement._id === undefined ? { _id: id, ...replacement } : replacement;
    this.set(next);
    return current ? updateResult(1, 1) : upserted(id);
  }

  /** `updateOne` by `_id` (and the projections' position guard), without evaluating a filter. */
  private async updateById(guard: IdGuard, filter: Document, update: Document, upsert: boolean): Promise<UpdateResult> {
    assertUpdateOperators(update);
    const doc = await this.byId(guard);
    if (doc === null) {
      if (!upsert) return updateResult(0, 0);
      // Stored, but the guard missed: the upsert would insert the same `_id` again, which MongoDB refuses.
      if (this.docs.get(valueKey(guard.id))) throw new DuplicateKeyError(this.collectionName, { _id: guard.id });
      const created = upsertedDocument(filter, update);
      this.set(created);
      return upserted(created._id);
    }
    const next = updatedDocument(doc, update, filter);
    if (!next) return updateResult(1, 0);
    this.set(next);
    return updateResult(1, 1);
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

type IdGuard = { id: unknown; below?: number };

/** `{ _id: v }`, or `{ _id: v, _position: { $lt: n } }` (applyOnce's filter), as a lookup and a bound. */
function idGuard(filter: Document): IdGuard | undefined {
  let id: unknown;
  let below: number | undefined;
  let fields = 0;
  for (const key in filter) {
    fields += 1;
    const condition = filter[key];
    if (key === '_id') {
      if (condition instanceof RegExp || (isPlainObject(condition) && Object.keys(condition).some((name) => name.startsWith('$')))) return undefined;
      id = condition;
    } else if (key === '_position' && isPlainObject(condition) && typeof condition.$lt === 'number' && Object.keys(condition).length === 1) {
      below = condition.$lt;
    } else return undefined;
  }
  if (id === undefined || fields !== (below === undefined ? 1 : 2)) return undefined;
  return below === undefined ? { id } : { id, below };
}

function updateResult(matchedCount: number, modifiedCount: number): UpdateResult {
  return { acknowledged: true, matchedCount, modifiedCount, upsertedCount: 0, upsertedId: null };
}

function upserted(id: unknown): UpdateResult {
  return { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: id };
}
