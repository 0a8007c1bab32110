import type Database from 'better-sqlite3';
import { documentFromJson, documentToJson } from './document-json.ts';
import { aggregateDocuments, matcherOf, projectDocuments, sortDocuments } from './document-query.ts';
import { assertReplacement, assertUpdateOperators, newObjectIdHex, replacementDocument, updatedDocument, upsertedDocument } from './document-update.ts';
import { idsOf, valueKey, valuesAt } from './document-values.ts';
import { sortFields, translateFilter, translateSort, type KeyPaths, type SortField } from './sqlite-filter.ts';
import { coveredFields, documentOfKeys } from './sqlite-covered.ts';
import { irregularKey, isIrregular, multikeyValues, pathKey, scalarKey, type SqlKey } from './sqlite-keys.ts';
import { defaultIndexName, documentsTable, keyColumn, multikeyTable, type IndexDefinition } from './sqlite-schema.ts';
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
  type UpdateFilter,
  type UpdateOptions,
  type UpdateResult,
} from './read-store.ts';

/** What a collection of the embedded read store shares with the store that opened it. */
export type SqliteContext = {
  db: Database.Database;
  statement(sql: string): Database.Statement;
  /** Counts changes to the file, this connection's and other processes': cached answers older than it are stale. */
  version(): number;
  changed(): void;
  /** Reads the collections' tables and indexes again if another connection changed them (checked now when forced, else now and then). */
  refreshSchema(force?: boolean): void;
  /** After a schema change rolled back: what this process believes of the tables is read again. */
  forgetSchema(): void;
  /** The documents of another collection, for `$lookup`. */
  documentsOf(collection: string): Document[];
};

type Row = { rid: number; doc: Document };

/** The collection's shape in the file, as this process knows it. */
export type CollectionShape = {
  exists: boolean;
  keyPaths: string[];
  indexes: IndexDefinition[];
};

/**
 * A collection of the embedded read store (see sqlite-schema.ts for the tables). Each write runs in
 * one SQLite transaction, read-modify-write included, which gives MongoDB's single-document atomicity;
 * queries run in SQL on the key columns where that is exact (sqlite-filter.ts) and are finished in
 * JavaScript otherwise. Documents are parsed from their JSON on every read: callers get copies.
 */
export class SqliteCollection implements ReadCollection<Document> {
  private readonly table: string;
  private readonly multikey: string;
  private readonly segments = new Map<string, string[]>();
  private irregularCache = new Map<string, boolean>();
  private irregularVersion = -1;
  private readonly keyPaths: KeyPaths;

  constructor(
    readonly collectionName: string,
    private readonly context: SqliteContext,
    readonly shape: CollectionShape,
    private readonly ensureTables: () => void,
    private readonly addKeyPath: (path: string) => void,
    private readonly addIndex: (index: IndexDefinition) => void,
  ) {
    this.table = documentsTable(collectionName);
    this.multikey = multikeyTable(collectionName);
    this.keyPaths = {
      columnOf: (path) => (path === '_id' || this.shape.keyPaths.includes(path) ? keyColumn(path) : undefined),
      irregular: (path) => this.isIrregularPath(path),
      multikeyTable: this.multikey,
    };
  }

  async findOne(filter: Filter<Document>, options: FindOptions = {}): Promise<Document | null> {
    const ids = onlyIds(filter as Document, options);
    if (ids) return this.byIds(ids.slice(0, 1))[0] ?? null;
    return this.query(filter as Document, { ...options, limit: 1 })[0] ?? null;
  }

  find(filter: Filter<Document>, options: FindOptions = {}): Cursor<Document> {
    return {
      toArray: async () => {
        const ids = onlyIds(filter as Document, options);
        return ids ? this.byIds(ids) : this.query(filter as Document, options);
      },
    };
  }

  /** The documents of these `_id`s: what the projections' batches load, straight from the identity index. */
  private byIds(ids: readonly unknown[]): Document[] {
    this.beforeRead();
    if (!this.shape.exists || ids.length === 0) return [];
    const keys = [...new Set(ids.map(valueKey))];
    const texts: string[] =
      keys.length === 1
        ? (this.context.statement(`SELECT doc FROM ${this.table} WHERE id = ?`).pluck().all(keys[0]) as string[])
        : (this.context.statement(`SELECT doc FROM ${this.table} WHERE id IN (SELECT value FROM json_each(?))`).pluck().all(JSON.stringify(keys)) as string[]);
    return texts.map((text) => documentFromJson(text));
  }

  async countDocuments(filter: Filter<Document> = {}): Promise<number> {
    this.beforeRead();
    if (!this.shape.exists) return 0;
    const clause = translateFilter(filter as Document, this.keyPaths);
    if (clause.exact) {
      const sql = `SELECT count(*) FROM ${this.table}${clause.sql ? ` WHERE ${clause.sql}` : ''}`;
      return this.context
        .statement(sql)
        .pluck()
        .get(...clause.params) as number;
    }
    return this.select(filter as Document, {}).length;
  }

  async insertOne(doc: Document): Promise<InsertOneResult> {
    // The driver assigns a missing _id on the caller's document too.
    doc._id ??= newObjectIdHex();
    const stored = { _id: doc._id, ...doc };
    this.transaction(() => this.write(stored, 'insert'));
    return { acknowledged: true, insertedId: doc._id };
  }

  async updateOne(filter: Filter<Document>, update: UpdateFilter<Document>, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.transaction(() => this.update(filter as Document, update as Document, options.upsert ?? false, 1));
  }

  async updateMany(filter: Filter<Document>, update: UpdateFilter<Document>, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.transaction(() => this.update(filter as Document, update as Document, options.upsert ?? false));
  }

  async replaceOne(filter: Filter<Document>, replacement: Document, options: UpdateOptions = {}): Promise<UpdateResult> {
    assertReplacement(replacement);
    return this.transaction(() => {
      const [current] = this.select(filter as Document, { limit: 1 });
      if (!current && !options.upsert) return updateResult(0, 0);
      const next = replacementDocument(filter as Document, current?.doc, replacement);
      if (!current) {
        this.write(next, 'insert');
        return upserted(next._id);
      }
      if (documentToJson(next) === documentToJson(current.doc)) return updateResult(1, 0);
      this.write(next, 'replace');
      return updateResult(1, 1);
    });
  }

  async deleteOne(filter: Filter<Document>): Promise<DeleteResult> {
    return this.transaction(() => this.delete(filter as Document, 1));
  }

  async deleteMany(filter: Filter<Document>): Promise<DeleteResult> {
    return this.transaction(() => this.delete(filter as Document));
  }

  async bulkWrite(operations: BulkUpdateOne<Document>[], options: { ordered?: boolean } = {}): Promise<unknown> {
    const result = {
      ok: 1,
      insertedCount: 0,
      matchedCount: 0,
      modifiedCount: 0,
      deletedCount: 0,
      upsertedCount: 0,
      upsertedIds: {} as Record<number, unknown>,
    };
    let failure: unknown;
    operations.forEach(({ updateOne: { filter, update, upsert } }, i) => {
      if (failure !== undefined && options.ordered !== false) return;
      try {
        const outcome = this.transaction(() => this.update(filter as Document, update as Document, upsert ?? false, 1));
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
        // A leading $match is answered like a find; the rest of the pipeline runs on the documents.
        const [first, ...rest] = pipeline;
        const leadingMatch = first !== undefined && Object.hasOwn(first, '$match');
        const source = this.select(leadingMatch ? (first.$match as Document) : {}, {}).map((row) => row.doc);
        return aggregateDocuments<R>(source, leadingMatch ? rest : pipeline, this.context.documentsOf);
      },
    };
  }

  async createIndex(spec: IndexSpecification, options: CreateIndexOptions = {}): Promise<string> {
    const fields = Object.entries(spec) as [string, 1 | -1][];
    if (fields.length === 1 && fields[0]![0] === '_id') {
      this.transaction(() => this.ensureTables());
      return '_id_';
    }
    const name = options.name ?? defaultIndexName(spec);
    if (this.shape.indexes.some((index) => index.name === name)) return name;
    const index: IndexDefinition = { name, fields, unique: options.unique ?? false, sparse: options.sparse ?? false };
    try {
      this.transaction(() => {
        if (this.shape.indexes.some((existing) => existing.name === name)) return;
        this.ensureTables();
        const added = fields.map(([path]) => path).filter((path) => path !== '_id' && !this.shape.keyPaths.includes(path));
        for (const path of added) this.addKeyPath(path);
        if (added.length > 0) this.backfill(added);
        if (index.unique) this.assertNoDuplicates(index);
        this.addIndex(index);
      });
    } catch (error) {
      // The key columns added in the transaction are gone with it.
      this.context.forgetSchema();
      throw error;
    }
    return name;
  }

  /** Every document, for verification and lookups. */
  all(): Document[] {
    return this.select({}, {}).map((row) => row.doc);
  }

  /**
   * Writes whole documents under their `_id` (inserted or replaced) and deletes others by `_id`,
   * inside the caller's transaction: the projections' batches (see the store's `writeDocuments`).
   */
  writeBatch(puts: readonly Document[], inserts: readonly Document[], deletes: readonly unknown[]): void {
    for (const doc of puts) this.write(doc, 'upsert');
    // Seen absent by the batch: nothing of an earlier version (multikey rows) to clear.
    for (const doc of inserts) this.write(doc, 'fresh');
    for (const id of deletes) {
      const rid = this.context.statement(`SELECT rid FROM ${this.table} WHERE id = ?`).pluck().get(valueKey(id)) as number | undefined;
      if (rid !== undefined) this.remove(rid);
    }
  }

  private transaction<T>(work: () => T): T {
    return this.context.db
      .transaction(() => {
        this.context.refreshSchema(true);
        return work();
      })
      .immediate();
  }

  private query(filter: Document, options: FindOptions): Document[] {
    this.beforeRead();
    if (!this.shape.exists) return [];
    const plan = this.plan(filter, options);
    const covered = this.coveredQuery(plan, options);
    if (covered) return covered;
    const docs = this.rows(plan, filter, options).map((row) => row.doc);
    return projectDocuments(docs, options.projection);
  }

  /** The filter and the sort in SQL, translated once per query. */
  private plan(filter: Document, options: Pick<FindOptions, 'sort'>): Plan {
    const fields: SortField[] = options.sort === undefined ? [] : sortFields(options.sort);
    return { clause: translateFilter(filter, this.keyPaths), fields, orderBy: fields.length === 0 ? '' : translateSort(fields, this.keyPaths) };
  }

  /**
   * A query answered from the key columns alone (sqlite-covered.ts): undefined when its projection is
   * not covered or SQL does not answer it exactly. Rows whose keys do not tell their values are read
   * from their documents.
   */
  private coveredQuery(plan: Plan, options: FindOptions): Document[] | undefined {
    const fields = coveredFields(options.projection, this.keyPaths.columnOf);
    if (!fields) return undefined;
    const exact = this.exactSql(plan, options, `rid, ${fields.map(({ column }) => column).join(', ')}`);
    if (!exact) return undefined;
    const rows = this.context
      .statement(exact.sql)
      .raw()
      .all(...exact.params) as [number, ...SqlKey[]][];
    const docs: (Document | undefined)[] = rows.map(([, ...keys]) => documentOfKeys(fields, keys));
    const unknown = rows.filter((_row, i) => docs[i] === undefined).map(([rid]) => rid);
    if (unknown.length === 0) return docs as Document[];
    const byRid = new Map(
      (this.context.statement(`SELECT rid, doc FROM ${this.table} WHERE rid IN (SELECT value FROM json_each(?))`).all(JSON.stringify(unknown)) as RawRow[])
        .map(parseRow)
        .map(({ rid, doc }) => [rid, projectDocuments([doc], options.projection)[0]!]),
    );
    return docs.map((doc, i) => doc ?? byRid.get(rows[i]![0])!);
  }

  /** The SQL selecting `columns` of exactly the matching rows, sorted, skipped and limited; undefined when SQL cannot answer exactly. */
  private exactSql(plan: Plan, options: Pick<FindOptions, 'skip' | 'limit'>, columns: string): { sql: string; params: unknown[] } | undefined {
    const { clause, orderBy } = plan;
    if (!clause.exact || orderBy === undefined) return undefined;
    let sql = `SELECT ${columns} FROM ${this.table}${clause.sql ? ` WHERE ${clause.sql}` : ''}${orderBy ? ` ORDER BY ${orderBy}` : ''}`;
    const params: unknown[] = [...clause.params];
    const skip = options.skip ?? 0;
    const limit = options.limit ? Math.abs(options.limit) : Infinity;
    if (limit !== Infinity || skip > 0) {
      sql += ' LIMIT ? OFFSET ?';
      params.push(limit === Infinity ? -1 : limit, skip);
    }
    return { sql, params };
  }

  /** The matching rows, sorted, skipped and limited: in SQL where that is exact, else finished here. */
  private select(filter: Document, options: Pick<FindOptions, 'sort' | 'skip' | 'limit'>): Row[] {
    this.beforeRead();
    if (!this.shape.exists) return [];
    return this.rows(this.plan(filter, options), filter, options);
  }

  private rows(plan: Plan, filter: Document, options: Pick<FindOptions, 'skip' | 'limit'>): Row[] {
    const exact = this.exactSql(plan, options, 'rid, doc');
    if (exact) return (this.context.statement(exact.sql).all(...exact.params) as RawRow[]).map(parseRow);
    const { clause, fields, orderBy } = plan;
    const skip = options.skip ?? 0;
    const limit = options.limit ? Math.abs(options.limit) : Infinity;
    const sql = `SELECT rid, doc FROM ${this.table}${clause.sql ? ` WHERE ${clause.sql}` : ''}${orderBy ? ` ORDER BY ${orderBy}` : ''}`;
    const statement = () => this.context.statement(sql);
    const matches = matcherOf(filter);
    if (orderBy !== undefined) {
      // In order already: stop once the page is full.
      const found: Row[] = [];
      let skipped = 0;
      for (const raw of statement().iterate(...clause.params) as IterableIterator<RawRow>) {
        const row = parseRow(raw);
        if (!clause.exact && !matches(row.doc)) continue;
        if (skipped < skip) skipped += 1;
        else found.push(row);
        if (found.length >= limit) break;
      }
      return found;
    }
    const rows = (statement().all(...clause.params) as RawRow[]).map(parseRow).filter((row) => clause.exact || matches(row.doc));
    const ridOf = new Map(rows.map((row) => [row.doc, row.rid]));
    const sorted = sortDocuments(
      rows.map((row) => row.doc),
      fields,
    );
    return sorted.slice(skip, limit === Infinity ? undefined : skip + limit).map((doc) => ({ rid: ridOf.get(doc)!, doc }));
  }

  private update(filter: Document, update: Document, upsert: boolean, limit?: number): UpdateResult {
    assertUpdateOperators(update);
    const targets = this.select(filter, limit === undefined ? {} : { limit });
    if (targets.length === 0) {
      if (!upsert) return updateResult(0, 0);
      const doc = upsertedDocument(filter, update);
      this.write(doc, 'insert');
      return upserted(doc._id);
    }
    let modified = 0;
    for (const { doc } of targets) {
      const next = updatedDocument(doc, update, filter);
      if (!next) continue;
      this.write(next, 'replace');
      modified += 1;
    }
    return updateResult(targets.length, modified);
  }

  private delete(filter: Document, limit?: number): DeleteResult {
    const targets = this.select(filter, limit === undefined ? {} : { limit });
    for (const { rid } of targets) this.remove(rid);
    return { acknowledged: true, deletedCount: targets.length };
  }

  private remove(rid: number): void {
    this.context.statement(`DELETE FROM ${this.table} WHERE rid = ?`).run(rid);
    this.context.statement(`DELETE FROM ${this.multikey} WHERE rid = ?`).run(rid);
    this.context.changed();
  }

  /**
   * Stores `doc` under its `_id`, inside a write transaction (which has read the schema as it is):
   * `insert` refuses an existing one, `replace` and `upsert` overwrite it, `fresh` is an upsert of a
   * document its writer saw absent (no earlier multikey rows to clear).
   */
  private write(doc: Document, mode: 'insert' | 'replace' | 'upsert' | 'fresh'): void {
    this.ensureTables();
    const id = valueKey(doc._id);
    this.assertUnique(doc, id);
    const paths = this.shape.keyPaths;
    const keys = paths.map((path) => pathKey(doc, this.segmentsOf(path)));
    const { insert, upsert } = this.writeSql();
    let rid: number;
    try {
      rid = this.context
        .statement(mode === 'insert' ? insert : upsert)
        .pluck()
        .get(id, pathKey(doc, idPath), ...keys, documentToJson(doc)) as number;
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateKeyError(this.collectionName, { _id: doc._id });
      throw error;
    }
    if (paths.length > 0) this.writeMultikeys(rid, doc, keys, mode === 'replace' || mode === 'upsert');
    this.context.changed();
  }

  private writeStatements: { paths: readonly string[]; insert: string; upsert: string } | undefined;

  /** The INSERT and the upsert of a document with its key columns, for the collection's current shape. */
  private writeSql(): { insert: string; upsert: string } {
    const paths = this.shape.keyPaths;
    if (this.writeStatements?.paths !== paths) {
      const columns = ['id', keyColumn('_id'), ...paths.map(keyColumn), 'doc'];
      const insert = `INSERT INTO ${this.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
      const update = columns
        .slice(1)
        .map((column) => `${column} = excluded.${column}`)
        .join(', ');
      this.writeStatements = { paths, insert: `${insert} RETURNING rid`, upsert: `${insert} ON CONFLICT(id) DO UPDATE SET ${update} RETURNING rid` };
    }
    return this.writeStatements;
  }

  /** Whether the multikey table may hold rows (read once, then kept up to date by this process's writes). */
  private multikeyRows: boolean | undefined;

  private writeMultikeys(rid: number, doc: Document, keys: SqlKey[], replacing: boolean): void {
    this.multikeyRows ??= this.context.statement(`SELECT 1 FROM ${this.multikey} LIMIT 1`).pluck().get() !== undefined;
    // A collection none of whose documents ever had an array on an indexed path has nothing to clear.
    if (replacing && this.multikeyRows) this.context.statement(`DELETE FROM ${this.multikey} WHERE rid = ?`).run(rid);
    const insert = () => this.context.statement(`INSERT INTO ${this.multikey} (path, key, rid) VALUES (?, ?, ?)`);
    this.shape.keyPaths.forEach((path, i) => {
      if (!isIrregular(keys[i]!)) return;
      this.multikeyRows = true;
      insert().run(path, irregularKey, rid);
      for (const key of multikeyValues(doc, this.segmentsOf(path))) insert().run(path, key, rid);
    });
  }

  /** Computes the key columns and multikey rows of the documents stored before `paths` were indexed. */
  private backfill(paths: string[]): void {
    const set = paths.map((path) => `${keyColumn(path)} = ?`).join(', ');
    const update = this.context.statement(`UPDATE ${this.table} SET ${set} WHERE rid = ?`);
    const insert = this.context.statement(`INSERT INTO ${this.multikey} (path, key, rid) VALUES (?, ?, ?)`);
    for (const { rid, doc } of (this.context.statement(`SELECT rid, doc FROM ${this.table}`).all() as RawRow[]).map(parseRow)) {
      const keys = paths.map((path) => pathKey(doc, this.segmentsOf(path)));
      update.run(...keys, rid);
      paths.forEach((path, i) => {
        if (!isIrregular(keys[i]!)) return;
        this.multikeyRows = true;
        insert.run(path, irregularKey, rid);
        for (const key of multikeyValues(doc, this.segmentsOf(path))) insert.run(path, key, rid);
      });
    }
    this.context.changed();
  }

  /** Refuses `doc` (stored under `id`) if a unique index already holds one of its keys for another document. */
  private assertUnique(doc: Document, id: string): void {
    for (const index of this.shape.indexes) {
      if (!index.unique) continue;
      const keys = uniqueKeys(doc, index, this.segmentsOf.bind(this));
      if (keys.size === 0) continue;
      for (const other of this.candidatesSharingFirstKey(doc, index, id)) {
        const duplicate = [...uniqueKeys(other, index, this.segmentsOf.bind(this))].find((key) => keys.has(key));
        if (duplicate !== undefined) {
          throw new DuplicateKeyError(
            this.collectionName,
            Object.fromEntries(index.fields.map(([path]) => [path, valuesAt(doc, this.segmentsOf(path))[0] ?? null])),
          );
        }
      }
    }
  }

  /** The other documents whose first indexed path reaches one of the values it reaches in `doc`. */
  private candidatesSharingFirstKey(doc: Document, index: IndexDefinition, id: string): Document[] {
    const path = index.fields[0]![0];
    const values = valuesAt(doc, this.segmentsOf(path));
    const keys = values.map(scalarKey);
    // An embedded document or an empty array as a key: compared with every other document.
    const filter = keys.some((key) => key === undefined) ? {} : { [path]: { $in: values.map((value) => (value === undefined ? null : value)) } };
    return this.select(filter, {})
      .map((row) => row.doc)
      .filter((other) => valueKey(other._id) !== id);
  }

  private assertNoDuplicates(index: IndexDefinition): void {
    const seen = new Map<string, unknown>();
    for (const doc of this.all()) {
      for (const key of uniqueKeys(doc, index, this.segmentsOf.bind(this))) {
        if (seen.has(key))
          throw new DuplicateKeyError(this.collectionName, { [index.fields[0]![0]]: valuesAt(doc, this.segmentsOf(index.fields[0]![0]))[0] ?? null });
        seen.set(key, doc._id);
      }
    }
  }

  private segmentsOf(path: string): string[] {
    let segments = this.segments.get(path);
    if (!segments) {
      segments = path.split('.');
      this.segments.set(path, segments);
    }
    return segments;
  }

  /**
   * Every read starts here: the schema as the file has it, and what is known of irregular keys
   * forgotten if the file changed since (checked once per read, not once per path).
   */
  private beforeRead(): void {
    this.context.refreshSchema();
    const version = this.context.version();
    if (version !== this.irregularVersion) {
      this.irregularCache = new Map();
      this.irregularVersion = version;
    }
  }

  /** Whether some document has an irregular key on this path: one lookup in the multikey table, cached until the file changes (see beforeRead). */
  private isIrregularPath(path: string): boolean {
    let irregular = this.irregularCache.get(path);
    if (irregular === undefined) {
      const sql =
        path === '_id'
          ? `SELECT 1 FROM ${this.table} WHERE ${keyColumn('_id')} = ? LIMIT 1`
          : `SELECT 1 FROM ${this.multikey} WHERE path = ? AND key = ? LIMIT 1`;
      const params = path === '_id' ? [irregularKey] : [path, irregularKey];
      irregular =
        this.context
          .statement(sql)
          .pluck()
          .get(...params) !== undefined;
      this.irregularCache.set(path, irregular);
    }
    return irregular;
  }
}

type RawRow = { rid: number; doc: string };

type Plan = { clause: ReturnType<typeof translateFilter>; fields: SortField[]; orderBy: string | undefined };

const idPath = ['_id'];

/** The `_id`s a filter names when it names nothing else (and the query has no option but a limit). */
const onlyIds = (filter: Document, options: FindOptions): unknown[] | undefined => {
  if (options.sort !== undefined || options.skip || options.projection !== undefined || (options.limit !== undefined && options.limit !== 1)) return undefined;
  const keys = Object.keys(filter);
  return keys.length === 1 && keys[0] === '_id' ? idsOf(filter) : undefined;
};

const parseRow = (raw: RawRow): Row => ({ rid: raw.rid, doc: documentFromJson(raw.doc) });

/** The keys a document holds in a unique index, one per combination of the values its paths reach; none when a sparse index leaves it out. */
const uniqueKeys = (doc: Document, index: IndexDefinition, segmentsOf: (path: string) => string[]): Set<string> => {
  const values = index.fields.map(([path]) => valuesAt(doc, segmentsOf(path)));
  if (index.sparse && values.every((list) => list.every((value) => value === undefined))) return new Set();
  const combinations = values.reduce<unknown[][]>((partial, list) => partial.flatMap((key) => list.map((value) => [...key, value])), [[]]);
  return new Set(combinations.map((combination) => combination.map(valueKey).join('\u0000')));
};

function updateResult(matchedCount: number, modifiedCount: number): UpdateResult {
  return { acknowledged: true, matchedCount, modifiedCount, upsertedCount: 0, upsertedId: null };
}

function upserted(id: unknown): UpdateResult {
  return { acknowledged: true, matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: id };
}
