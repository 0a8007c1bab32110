import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { GrowingTree, HASH_SIZE, rootOf, type Hash, type SubtreeHashes } from './merkle.ts';
import type { TreeHead } from './tree-head.ts';

/**
 * The log's Merkle tree as an instance keeps it, in a SQLite file of its own (LOG_TREE_FILE, by default
 * DATA_DIR/log-tree.sqlite): the hash of every leaf and of every complete subtree of 16 leaves or more,
 * the log position of each leaf, the signed heads found in the log, and the public keys that signed
 * them. About one hash and a sixteenth per event; a proof reads O(log n) of them (a subtree of 2, 4 or
 * 8 leaves is hashed again from its leaves), and a start resumes from the tree's right edge without
 * rereading the log. Derived data: deleted, it is rebuilt from the log (the same leaves give
 * the same tree). Another process may open the same file (the CLI beside the server): writes take the
 * file's write lock first, and wait for it.
 */

export type StoredHead = TreeHead & { publicKey: string; position: number };

export type TreeLeaf = { hash: Hash; position: number; isHead: boolean };

export type TreeStore = {
  size(): number;
  /** The position of the last event in the tree, -1 when empty. */
  lastPosition(): number;
  /** The index of the last leaf that is not a tree head, -1 when none. */
  lastEventIndex(): number;
  /** Appends leaves (hash, position, whether the event is a tree head) in one transaction; those at or before lastPosition() are skipped. */
  append(leaves: readonly TreeLeaf[]): void;
  /** Runs `work` in one transaction: a kill leaves all of its writes in the file, or none. */
  atomically<T>(work: () => T): T;
  subtrees: SubtreeHashes;
  root(size?: number): Hash;
  leafIndexAt(position: number): number | undefined;
  positionOf(index: number): number | undefined;
  leafHashAt(index: number): Hash | undefined;
  /** The hashes of up to `count` leaves from `index` on, in order. */
  leafHashesFrom(index: number, count: number): Hash[];
  recordHead(head: StoredHead): void;
  latestHead(): StoredHead | undefined;
  /** The latest head covering at most `size` leaves. */
  headAtOrBefore(size: number): StoredHead | undefined;
  headAt(size: number): StoredHead | undefined;
  publicKeys(): { keyId: string; publicKey: string }[];
  /** Empties the tree (leaves, subtrees, heads, keys), to be rebuilt from the log. */
  clear(): void;
  close(): void;
};

/** The version of the file's layout (SQLite's user_version): a file of another is emptied and rebuilt from the log. */
const FORMAT = 3;

/**
 * The lowest level of the subtrees kept: those below, a row a leaf or more when all kept (most of a
 * growing tree's writes), are hashed again from their few leaves when asked for.
 */
const KEPT_FROM_LEVEL = 4;

// Level 0 of the tree (the leaves) in `leaves`, beside their positions; the levels from KEPT_FROM_LEVEL in `subtrees`.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS leaves (idx INTEGER PRIMARY KEY, position INTEGER NOT NULL UNIQUE, hash BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS subtrees (level INTEGER NOT NULL, idx INTEGER NOT NULL, hash BLOB NOT NULL, PRIMARY KEY (level, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS heads (tree_size INTEGER PRIMARY KEY, root_hash TEXT NOT NULL, signed_at TEXT NOT NULL, key_id TEXT NOT NULL,
  signature TEXT NOT NULL, public_key TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS public_keys (key_id TEXT PRIMARY KEY, public_key TEXT NOT NULL, first_position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS state (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
`;

const tables = ['leaves', 'subtrees', 'heads', 'public_keys', 'state'];

const laidOut = (db: Database.Database): void => {
  db.transaction(() => {
    if (db.pragma('user_version', { simple: true }) === FORMAT) return;
    for (const table of tables) db.exec(`DROP TABLE IF EXISTS ${table}`);
    db.exec(SCHEMA);
    db.pragma(`user_version = ${FORMAT}`);
  }).immediate();
};

type HeadRow = { tree_size: number; root_hash: string; signed_at: string; key_id: string; signature: string; public_key: string; position: number };

const toHead = (row: HeadRow | undefined): StoredHead | undefined =>
  row && {
    treeSize: row.tree_size,
    rootHash: row.root_hash,
    signedAt: row.signed_at,
    keyId: row.key_id,
    signature: row.signature,
    publicKey: row.public_key,
    position: row.position,
  };

type Row = [number, number, Buffer];

/** Rows one statement inserts when many are written at once: a statement a row cost half as much again as writing the rows. */
const ROWS_AT_ONCE = 64;

/** Inserts rows of three values into `table`, ROWS_AT_ONCE to a statement, the rest one by one. */
const inserts = (db: Database.Database, table: string): ((rows: readonly Row[]) => void) => {
  const many = db.prepare<unknown[]>(`INSERT INTO ${table} VALUES ${Array.from({ length: ROWS_AT_ONCE }, () => '(?, ?, ?)').join(', ')}`);
  const one = db.prepare<Row>(`INSERT INTO ${table} VALUES (?, ?, ?)`);
  return (rows) => {
    let at = 0;
    for (; at + ROWS_AT_ONCE <= rows.length; at += ROWS_AT_ONCE) many.run(rows.slice(at, at + ROWS_AT_ONCE).flat());
    for (; at < rows.length; at++) one.run(...rows[at]!);
  };
};

export const openTreeStore = (file: string): TreeStore => {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { timeout: 5_000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  laidOut(db);
  const statements = {
    state: db.prepare<[string], { value: number }>('SELECT value FROM state WHERE name = ?'),
    setState: db.prepare<[string, number]>('INSERT INTO state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
    subtree: db.prepare<[number, number], { hash: Buffer }>('SELECT hash FROM subtrees WHERE level = ? AND idx = ?'),
    leafHash: db.prepare<[number], { hash: Buffer }>('SELECT hash FROM leaves WHERE idx = ?'),
    leafHashesFrom: db.prepare<[number, number], { hash: Buffer }>('SELECT hash FROM leaves WHERE idx >= ? ORDER BY idx LIMIT ?'),
    insertSubtrees: inserts(db, 'subtrees (level, idx, hash)'),
    insertLeaves: inserts(db, 'leaves (idx, position, hash)'),
    leafAt: db.prepare<[number], { idx: number }>('SELECT idx FROM leaves WHERE position = ?'),
    positionOf: db.prepare<[number], { position: number }>('SELECT position FROM leaves WHERE idx = ?'),
    insertHead: db.prepare<HeadRow>(
      `INSERT OR IGNORE INTO heads (tree_size, root_hash, signed_at, key_id, signature, public_key, position)
       VALUES (@tree_size, @root_hash, @signed_at, @key_id, @signature, @public_key, @position)`,
    ),
    insertKey: db.prepare<[string, string, number]>('INSERT OR IGNORE INTO public_keys (key_id, public_key, first_position) VALUES (?, ?, ?)'),
    latestHead: db.prepare<[], HeadRow>('SELECT * FROM heads ORDER BY tree_size DESC LIMIT 1'),
    headAtOrBefore: db.prepare<[number], HeadRow>('SELECT * FROM heads WHERE tree_size <= ? ORDER BY tree_size DESC LIMIT 1'),
    headAt: db.prepare<[number], HeadRow>('SELECT * FROM heads WHERE tree_size = ?'),
    keys: db.prepare<[], { key_id: string; public_key: string }>('SELECT key_id, public_key FROM public_keys ORDER BY first_position'),
  };
  const stateOf = (name: string, fallback: number): number => statements.state.get(name)?.value ?? fallback;

  const missing = (level: number, index: number) => new Error(`The log tree has no subtree ${level}:${index}: rebuild it from the log`);

  const subtrees: SubtreeHashes = (level, index) => {
    if (level > 0 && level < KEPT_FROM_LEVEL) {
      const width = 2 ** level;
      const leaves = statements.leafHashesFrom.all(index * width, width);
      if (leaves.length < width || leaves.some((leaf) => leaf.hash.length !== HASH_SIZE)) throw missing(level, index);
      const subtree = new GrowingTree();
      for (const leaf of leaves) subtree.append(leaf.hash);
      return subtree.root();
    }
    const row = level === 0 ? statements.leafHash.get(index) : statements.subtree.get(level, index);
    if (!row || row.hash.length !== HASH_SIZE) throw missing(level, index);
    return row.hash;
  };

  /** The right edge of the tree of `size` leaves: its complete subtrees, largest first. */
  const edgeOf = (size: number): Hash[] => {
    const edge: Hash[] = [];
    let from = 0;
    for (let level = 52; level >= 0; level--) {
      const width = 2 ** level;
      if (size - from >= width) {
        edge.push(subtrees(level, from / width));
        from += width;
      }
    }
    return edge;
  };

  const size = () => stateOf('size', 0);

  const appendAll = db.transaction((leaves: readonly TreeLeaf[]) => {
    const leafRows: Row[] = [];
    const subtreeRows: Row[] = [];
    const tree = GrowingTree.resume(size(), edgeOf(size()), (level, index, hash) => level >= KEPT_FROM_LEVEL && subtreeRows.push([level, index, hash]));
    let lastEvent = stateOf('lastEventIndex', -1);
    let last = stateOf('lastPosition', -1);
    for (const leaf of leaves) {
      if (leaf.position <= last) continue;
      leafRows.push([tree.size, leaf.position, leaf.hash]);
      if (!leaf.isHead) lastEvent = tree.size;
      tree.append(leaf.hash);
      last = leaf.position;
    }
    statements.insertLeaves(leafRows);
    statements.insertSubtrees(subtreeRows);
    statements.setState.run('size', tree.size);
    statements.setState.run('lastPosition', last);
    statements.setState.run('lastEventIndex', lastEvent);
  });

  return {
    size,
    lastPosition: () => stateOf('lastPosition', -1),
    lastEventIndex: () => stateOf('lastEventIndex', -1),
    // Immediate: the size read first is still the file's when the leaves are written, whoever else writes to it.
    append: (leaves) => {
      if (leaves.length > 0) appendAll.immediate(leaves);
    },
    atomically: (work) => db.transaction(work).immediate(),
    subtrees,
    root: (at = size()) => rootOf(subtrees, at),
    leafIndexAt: (position) => statements.leafAt.get(position)?.idx,
    positionOf: (index) => statements.positionOf.get(index)?.position,
    leafHashAt: (index) => statements.leafHash.get(index)?.hash,
    leafHashesFrom: (index, count) => statements.leafHashesFrom.all(index, count).map((row) => row.hash),
    recordHead: (head) => {
      statements.insertHead.run({
        tree_size: head.treeSize,
        root_hash: head.rootHash,
        signed_at: head.signedAt,
        key_id: head.keyId,
        signature: head.signature,
        public_key: head.publicKey,
        position: head.position,
      });
      statements.insertKey.run(head.keyId, head.publicKey, head.position);
    },
    latestHead: () => toHead(statements.latestHead.get()),
    headAtOrBefore: (at) => toHead(statements.headAtOrBefore.get(at)),
    headAt: (at) => toHead(statements.headAt.get(at)),
    publicKeys: () => statements.keys.all().map((row) => ({ keyId: row.key_id, publicKey: row.public_key })),
    clear: () => {
      db.transaction(() => {
        for (const table of tables) db.exec(`DELETE FROM ${table}`);
      }).immediate();
    },
    close: () => db.close(),
  };
};
