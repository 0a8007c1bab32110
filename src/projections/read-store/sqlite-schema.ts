import type Database from 'better-sqlite3';
import type { IndexSpecification } from './read-store.ts';

/**
 * The tables of the embedded read store. Each collection is a table of JSON documents,
 * `"docs:<collection>"(rid, id, "k:_id", "k:<path>"..., doc)`: `id` is the `_id` as a typed text
 * (document-values.ts), each `"k:<path>"` the key of an indexed path (sqlite-keys.ts), and every
 * `createIndex` an SQL index on those columns. `"mk:<collection>"` lists, for the documents whose key
 * on a path is irregular (an array on the way), a marker row and the scalar keys the path reaches.
 * `read_store_indexes` remembers each index's definition.
 */

export type IndexDefinition = { name: string; fields: [string, 1 | -1][]; unique: boolean; sparse: boolean };

export const quote = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;
export const documentsTable = (collection: string): string => quote(`docs:${collection}`);
export const multikeyTable = (collection: string): string => quote(`mk:${collection}`);
export const keyColumn = (path: string): string => quote(`k:${path}`);

const documentsPrefix = 'docs:';
const keyPrefix = 'k:';

export const createMetadata = (db: Database.Database): void => {
  db.exec(`CREATE TABLE IF NOT EXISTS read_store_indexes (
    collection TEXT NOT NULL, name TEXT NOT NULL, definition TEXT NOT NULL, PRIMARY KEY (collection, name)
  )`);
};

export const createCollectionTables = (db: Database.Database, collection: string): void => {
  const docs = documentsTable(collection);
  const mk = multikeyTable(collection);
  db.exec(`
    CREATE TABLE IF NOT EXISTS ${docs} (rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, ${keyColumn('_id')}, doc TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS ${quote(`ix:${collection}:_id_`)} ON ${docs} (${keyColumn('_id')});
    CREATE TABLE IF NOT EXISTS ${mk} (path TEXT NOT NULL, key, rid INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS ${quote(`mk:${collection}:key`)} ON ${mk} (path, key);
    CREATE INDEX IF NOT EXISTS ${quote(`mk:${collection}:rid`)} ON ${mk} (rid);
  `);
};

export const dropCollectionTables = (db: Database.Database, collection: string): void => {
  db.exec(`DROP TABLE IF EXISTS ${documentsTable(collection)}; DROP TABLE IF EXISTS ${multikeyTable(collection)};`);
  db.prepare('DELETE FROM read_store_indexes WHERE collection = ?').run(collection);
};

export const addKeyColumn = (db: Database.Database, collection: string, path: string): void => {
  db.exec(`ALTER TABLE ${documentsTable(collection)} ADD COLUMN ${keyColumn(path)}`);
};

export const createSqlIndex = (db: Database.Database, collection: string, index: IndexDefinition): void => {
  const columns = index.fields.map(([path, direction]) => `${keyColumn(path)} ${direction === 1 ? 'ASC' : 'DESC'}`).join(', ');
  db.exec(`CREATE INDEX IF NOT EXISTS ${quote(`ix:${collection}:${index.name}`)} ON ${documentsTable(collection)} (${columns})`);
  db.prepare('INSERT OR REPLACE INTO read_store_indexes (collection, name, definition) VALUES (?, ?, ?)').run(collection, index.name, JSON.stringify(index));
};

export type StoredCollection = { name: string; keyPaths: string[]; indexes: IndexDefinition[] };

/** The collections the file holds, with their key columns and indexes. */
export const readCollections = (db: Database.Database): StoredCollection[] => {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'docs:%'").pluck().all() as string[];
  const definitions = db.prepare('SELECT collection, definition FROM read_store_indexes').all() as { collection: string; definition: string }[];
  return tables.map((table) => {
    const name = table.slice(documentsPrefix.length);
    const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[];
    return {
      name,
      keyPaths: columns.filter((column) => column.startsWith(keyPrefix) && column !== `${keyPrefix}_id`).map((column) => column.slice(keyPrefix.length)),
      indexes: definitions.filter((row) => row.collection === name).map((row) => JSON.parse(row.definition) as IndexDefinition),
    };
  });
};

/** MongoDB's default index name: `field_1_other_-1`. */
export const defaultIndexName = (spec: IndexSpecification): string =>
  Object.entries(spec)
    .map(([field, direction]) => `${field}_${direction}`)
    .join('_');
