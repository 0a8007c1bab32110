import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteCollection, type CollectionShape, type SqliteContext } from './sqlite-collection.ts';
import { addKeyColumn, createCollectionTables, createMetadata, createSqlIndex, dropCollectionTables, readCollections } from './sqlite-schema.ts';
import type { Document, DocumentWrites, ReadCollection, ReadStore } from './read-store.ts';

/**
 * The embedded adapter of the read-store port: the read models in one SQLite file of their own
 * (`DATA_DIR/read-models.sqlite`), derived data that can be deleted and rebuilt from the log at any time.
 * WAL with `synchronous=NORMAL`: a commit survives the process being killed; an OS crash may lose the
 * last ones, checkpoints included, which the projections then apply again from the log.
 * `:memory:` gives a private store (the tests, a scratch rebuild).
 */

export type SqliteReadStoreOptions = {
  /** A file path, or `:memory:`. */
  file: string;
  /** Pages of the SQLite cache; the default keeps it to about 64 MiB. */
  cacheSizeKiB?: number;
  /**
   * A store thrown away after use (`projections verify`'s replay): no journal, no sync to disk, freed
   * bytes not overwritten. A crash loses it, which costs nothing: the next run starts it over.
   */
  scratch?: boolean;
};

export type SqliteReadStore = ReadStore & {
  /** For diagnostics and tests: the query plan SQLite chooses for a statement. */
  explain(sql: string): string[];
};

const schemaCheckEveryMs = 50;

export const openSqliteReadStore = (options: SqliteReadStoreOptions): SqliteReadStore => {
  if (options.file !== ':memory:') mkdirSync(path.dirname(options.file), { recursive: true });
  const db = new Database(options.file);
  if (options.scratch) {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
  } else {
    if (options.file !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // What a write replaces or deletes is overwritten with zeros: an erased customer's values leave no bytes behind.
    db.pragma('secure_delete = ON');
  }
  db.pragma(`cache_size = -${options.cacheSizeKiB ?? 65536}`);
  db.pragma('busy_timeout = 10000');
  createMetadata(db);

  const statements = new Map<string, Database.Statement>();
  let localChanges = 0;
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const schemaVersion = db.prepare('PRAGMA schema_version').pluck();
  const shapes = new Map<string, CollectionShape>();
  const collections = new Map<string, SqliteCollection>();
  let knownSchema = -1;

  let schemaCheckedAt = 0;
  /**
   * Another process (the CLI, an instance) may have created, indexed or dropped collections: read them
   * again then. Every write transaction checks first (the schema cannot change while it holds the lock);
   * reads check at most every few milliseconds, as a read on an outdated shape is slower, never wrong
   * (an index it does not know of is not used).
   */
  const refreshSchema = (force = false): void => {
    const now = performance.now();
    if (!force && now - schemaCheckedAt < schemaCheckEveryMs) return;
    schemaCheckedAt = now;
    const current = schemaVersion.get() as number;
    if (current === knownSchema) return;
    knownSchema = current;
    statements.clear();
    const stored = new Map(readCollections(db).map((found) => [found.name, found]));
    for (const name of new Set([...shapes.keys(), ...stored.keys()])) {
      const found = stored.get(name);
      Object.assign(shapeOf(name), { exists: found !== undefined, keyPaths: found?.keyPaths ?? [], indexes: found?.indexes ?? [] });
    }
  };

  const context: SqliteContext = {
    db,
    statement(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    // data_version moves when another connection commits; this connection's own writes are counted here.
    version: () => localChanges * 2 ** 20 + (dataVersion.get() as number),
    changed: () => {
      localChanges += 1;
    },
    refreshSchema,
    forgetSchema: () => {
      knownSchema = -1;
      schemaCheckedAt = 0;
    },
    documentsOf: (name) => collection(name).all(),
  };

  const shapeOf = (name: string): CollectionShape => {
    let shape = shapes.get(name);
    if (!shape) {
      shape = { exists: false, keyPaths: [], indexes: [] };
      shapes.set(name, shape);
    }
    return shape;
  };

  const collection = (name: string): SqliteCollection => {
    let found = collections.get(name);
    if (!found) {
      const shape = shapeOf(name);
      found = new SqliteCollection(
        name,
        context,
        shape,
        () => {
          if (shape.exists) return;
          createCollectionTables(db, name);
          shape.exists = true;
        },
        (keyPath) => {
          addKeyColumn(db, name, keyPath);
          shape.keyPaths = [...shape.keyPaths, keyPath];
        },
        (index) => {
          createSqlIndex(db, name, index);
          shape.indexes = [...shape.indexes, index];
        },
      );
      collections.set(name, found);
    }
    return found;
  };

  const drop = (name: string): void => {
    dropCollectionTables(db, name);
    // Statements naming the dropped tables would fail; handles stay valid and start empty again.
    statements.clear();
    Object.assign(shapeOf(name), { exists: false, keyPaths: [], indexes: [] });
    localChanges += 1;
  };

  refreshSchema(true);

  return {
    collection: <T extends Document = Document>(name: string) => collection(name) as unknown as ReadCollection<T>,
    listCollectionNames: async () => {
      refreshSchema(true);
      return [...shapes].filter(([, shape]) => shape.exists).map(([name]) => name);
    },
    dropCollection: async (name) => {
      // A collection another process created since this one looked is dropped all the same.
      db.transaction(() => drop(name)).immediate();
    },
    dropAll: async () => {
      db.transaction(() => {
        refreshSchema(true);
        for (const name of shapes.keys()) drop(name);
      }).immediate();
    },
    writeDocuments: async (writes: readonly DocumentWrites[], last?: DocumentWrites) => {
      db.transaction(() => {
        refreshSchema(true);
        for (const { collection: name, put, insert, remove } of last ? [...writes, last] : writes) collection(name).writeBatch(put, insert ?? [], remove ?? []);
      }).immediate();
    },
    releaseFreedBytes: async () => {
      // The write-ahead log still holds the pages as they were: written back and truncated (as far as readers allow).
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    explain: (sql) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail),
    close: async () => {
      if (db.open) db.close();
    },
  };
};
