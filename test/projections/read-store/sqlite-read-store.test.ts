import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSqliteReadStore } from '../../../src/projections/read-store/sqlite-read-store.ts';
import type { Document, UpdateFilter } from '../../../src/projections/read-store/read-store.ts';
import { readStoreContract } from './read-store-contract.ts';

// The driver types `_id` as an ObjectId unless the schema says otherwise.
interface Order extends Document {
  _id?: number | string;
}

readStoreContract('sqlite (in memory)', async () => {
  const store = openSqliteReadStore({ file: ':memory:' });
  return { store, cleanup: () => store.close() };
});

readStoreContract('sqlite (file)', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'read-store-'));
  const store = openSqliteReadStore({ file: path.join(dir, 'read-models.sqlite') });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('sqlite read store', () => {
  it('returns copies from every read and keeps no reference to written values', async () => {
    const items = openSqliteReadStore({ file: ':memory:' }).collection<Order>('items');
    const lines = [{ sku: 'A' }];
    await items.updateOne({ _id: 1 }, { $set: { lines } }, { upsert: true });
    await items.updateOne({ _id: 1 }, { $push: { history: { at: 1 } } } as Document as UpdateFilter<Order>);
    lines.push({ sku: 'changed' });

    const read = async () => (await items.findOne({ _id: 1 })) as Document;
    (await read()).lines.push({ sku: 'B' });
    (await items.find({ _id: 1 }).toArray())[0]!.history.push('x');
    expect(await read()).toEqual({ _id: 1, lines: [{ sku: 'A' }], history: [{ at: 1 }] });
    expect(await read()).not.toBe(await read());
  });

  it('answers a query whose projection its indexes cover from the index keys, without reading the documents', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'read-store-'));
    const file = path.join(dir, 'read-models.sqlite');
    const store = openSqliteReadStore({ file });
    try {
      const lines = store.collection<Order>('lines');
      await lines.createIndex({ supplier: 1, day: 1, entry: 1 });
      await lines.insertOne({ _id: 'a', supplier: 's1', day: '2026-10-02', entry: '{"id":"a"}', other: 1 });
      await lines.insertOne({ _id: 'b', supplier: 's1', day: '2026-10-01', entry: '{"id":"b"}', other: 2 });
      // The documents themselves made unreadable behind the store's back: only the keys can answer.
      const raw = new Database(file);
      raw.prepare(`UPDATE "docs:lines" SET doc = 'not JSON'`).run();
      raw.close();

      expect(await lines.find({ supplier: 's1' }, { sort: { day: 1 }, projection: { _id: 0, entry: 1 } }).toArray()).toEqual([
        { entry: '{"id":"b"}' },
        { entry: '{"id":"a"}' },
      ]);
      await expect(lines.find({ supplier: 's1' }, { projection: { other: 1 } }).toArray()).rejects.toThrow();
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('sets the generated _id on the inserted document, as the driver does', async () => {
    const items = openSqliteReadStore({ file: ':memory:' }).collection<Order>('items');
    const doc = { name: 'lamp' } as Order;
    const { insertedId } = await items.insertOne(doc);
    expect(doc._id).toBe(insertedId);
    expect(insertedId).toMatch(/^[0-9a-f]{24}$/);
  });
});
