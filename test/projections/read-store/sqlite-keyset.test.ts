import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Document } from '../../../src/projections/read-store/read-store.ts';
import { translateFilter, type KeyPaths } from '../../../src/projections/read-store/sqlite-filter.ts';

/**
 * A page after a cursor (a supplier's feed by `last_service_order_number`) is sought in the index at
 * the cursor, not walked from the first key equal on the listing's first field: a walk that lengthens
 * as a busy day's lines pile up. Read from SQLite's own query plan for the SQL the filter becomes;
 * that the answers stay MongoDB's is the differential spec's part.
 */

const db = new Database(':memory:');
db.exec(`CREATE TABLE lines (rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL, "k:supplier", "k:day", "k:seq", "k:line", "k:tags");
  CREATE INDEX listing ON lines ("k:supplier", "k:day", "k:seq", "k:line")`);
afterAll(() => db.close());

const paths: KeyPaths = {
  columnOf: (path) => (['supplier', 'day', 'seq', 'line', 'tags', '_id'].includes(path) ? `"k:${path}"` : undefined),
  irregular: (path) => path === 'tags',
  multikeyTable: 'lines_multikey',
};
const planOf = (filter: Document): string => {
  const { sql, params } = translateFilter(filter, paths);
  const query = `EXPLAIN QUERY PLAN SELECT rid FROM lines WHERE ${sql} ORDER BY "k:day", "k:seq", "k:line" LIMIT 100`;
  const rows = db.prepare(query).all(...params) as { detail: string }[];
  return rows.map((row) => row.detail).join('\n');
};
const after = (day: string, seq: number, line: string): Document[] => [{ day: { $gt: day } }, { day, seq: { $gt: seq } }, { day, seq, line: { $gt: line } }];

describe('the embedded read store, a page after a cursor', () => {
  it('when the filter asks for the keys after a cursor, the index is sought at the cursor itself', () => {
    expect(planOf({ supplier: 'supplier-a', $or: after('2026-07-04', 12, '3.0') })).toMatch(/^SEARCH .*\(k:day,k:seq,k:line\)>\(\?,\?,\?\)/);
  });

  it('when the alternatives come in another order, with their fields in another order, or the last bound inclusive, still', () => {
    const [first, second, third] = after('2026-07-04', 12, '3.0');
    // The fields of each alternative in another order too.
    const reordered = { line: third!.line, seq: third!.seq, day: third!.day };
    expect(planOf({ supplier: 'supplier-a', $or: [reordered, first!, second!] })).toMatch(/^SEARCH .*\(k:day,k:seq,k:line\)>\(\?,\?,\?\)/);
    expect(planOf({ supplier: 'supplier-a', $or: [{ day: { $lt: 'x' } }, { seq: { $lte: 2 }, day: 'x' }] })).toMatch(/SEARCH .*\(k:day,k:seq\)<=?\(\?,\?\)/);
  });

  it("when a bound on the cursor's first field stands beside them (the cursor's day, MongoDB's seek), the row value is still what is sought", () => {
    const cursor = after('2026-07-04', 12, '3.0');
    expect(planOf({ supplier: 'supplier-a', day: { $gte: '2026-07-04' }, $or: cursor })).toMatch(/^SEARCH .*\(k:day,k:seq,k:line\)>\(\?,\?,\?\)/);
    // An upper bound is sought with it: the walk stops at the last day asked for.
    expect(planOf({ supplier: 'supplier-a', day: { $gte: '2026-07-04', $lte: '2026-07-10' }, $or: cursor })).toMatch(
      /^SEARCH .*\(k:day,k:seq,k:line\)>\(\?,\?,\?\) AND k:day<\?/,
    );
  });

  it('when the alternatives are not a cursor (an equality on another value, a null bound, an array path, mixed directions), only they filter', () => {
    const notCursors: Document[][] = [
      [{ day: { $gt: 'a' } }, { day: 'b', seq: { $gt: 1 } }],
      [{ day: { $gt: null } }, { day: null, seq: { $gt: 1 } }],
      [{ tags: { $gt: 'a' } }, { tags: 'a', seq: { $gt: 1 } }],
      [{ day: { $gt: 'a' } }, { day: 'a', seq: { $lt: 1 } }],
      [{ day: { $gt: 'a' } }, { day: 'a', seq: { $gt: 1 }, line: 'x' }],
      [{ day: { $gt: 'a' } }, { day: 'a', unindexed: { $gt: 1 } }],
    ];
    for (const alternatives of notCursors) expect(translateFilter({ $or: alternatives }, paths).sql ?? '').not.toMatch(/\) [<>]=? \(/);
  });
});
