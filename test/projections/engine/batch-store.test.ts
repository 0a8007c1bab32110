import { describe, expect, it } from 'vitest';
import { BatchStore } from '../../../src/projections/engine/batch-store.ts';
import { openSqliteReadStore } from '../../../src/projections/read-store/sqlite-read-store.ts';
import type { Document, ReadCollection, ReadStore } from '../../../src/projections/read-store/read-store.ts';

type Day = { _id: string; orders: number };
type Line = { _id: string; saleId: number; open: boolean };
import { readStoreContract } from '../read-store/read-store-contract.ts';

/**
 * A projection's batch as the read-store port: reads and writes go through the batch, which holds the
 * changes until they are written to the store (here before anything the batch does not serve: an index,
 * a listing, a drop). Unique secondary indexes are checked by the store when the batch is written, so
 * the cases expecting the refusal at the write itself are expected to fail here; and the documents it
 * hands out are its own, read-only, not copies.
 */
const batched = (base: ReadStore): ReadStore => {
  let batch = new BatchStore(base);
  const flush = async () => {
    await base.writeDocuments(batch.writes());
    batch = new BatchStore(base);
  };
  const collection = (name: string): ReadCollection<Document> =>
    new Proxy({} as ReadCollection<Document>, {
      get: (_target, property: keyof ReadCollection<Document>) => {
        if (property === 'collectionName') return name;
        if (property === 'createIndex')
          return async (...args: Parameters<ReadCollection['createIndex']>) => {
            await flush();
            return base.collection(name).createIndex(...args);
          };
        const method = batch.collection(name)[property] as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => method.apply(batch.collection(name), args);
      },
    });
  return {
    collection: collection as ReadStore['collection'],
    listCollectionNames: async () => {
      await flush();
      return base.listCollectionNames();
    },
    writeDocuments: (writes, last) => base.writeDocuments(writes, last),
    dropCollection: async (name) => {
      await flush();
      await base.dropCollection(name);
    },
    dropAll: async () => {
      await flush();
      await base.dropAll();
    },
    close: () => base.close(),
  };
};

const checkedAtCommit = 'a unique secondary index is checked when the batch is written, not at the write';
const readOnly = 'a batch hands out its own documents, read-only (frozen under test), not copies';

readStoreContract(
  'a projection batch over the embedded store',
  async () => {
    const base = openSqliteReadStore({ file: ':memory:' });
    return { store: batched(base), cleanup: () => base.close() };
  },
  {
    'hands out copies: changing a result does not change the store': readOnly,
    'counts an identical replacement as not modified': 'a replacement by _id in a batch is not compared with the document it replaces: it counts as modified',
    'stops an ordered bulk write at the first failure, keeping what came before': checkedAtCommit,
    'refuses an insert, update or upsert that duplicates a unique key, and changes nothing': checkedAtCommit,
    'enforces a compound unique key on the whole key': checkedAtCommit,
    'indexes every element of an array under a unique index': checkedAtCommit,
    'treats a missing field as null under a unique index, unless the index is sparse': checkedAtCommit,
  },
);

describe('projection batch', () => {
  it('when documents are read and changed, the store sees nothing until the batch is written, then everything at once', async () => {
    const base = openSqliteReadStore({ file: ':memory:' });
    await base.collection<Day>('days').insertOne({ _id: '2026-01-01', orders: 1 });
    const batch = new BatchStore(base, (name) => `${name}_g1`);
    await base.collection<Day>('days_g1').insertOne({ _id: '2026-01-01', orders: 1 });
    const days = batch.collection<Day>('days');
    for (let i = 0; i < 5; i++) await days.updateOne({ _id: '2026-01-01' }, { $inc: { orders: 1 } });
    await days.updateOne({ _id: '2026-01-02' }, { $inc: { orders: 1 } }, { upsert: true });

    expect(await days.findOne({ _id: '2026-01-01' })).toEqual({ _id: '2026-01-01', orders: 6 });
    expect(await base.collection<Day>('days_g1').findOne({ _id: '2026-01-01' })).toEqual({ _id: '2026-01-01', orders: 1 });
    expect(batch.writes()).toEqual([
      { collection: 'days_g1', put: [{ _id: '2026-01-01', orders: 6 }], insert: [{ _id: '2026-01-02', orders: 1 }], remove: [] },
    ]);
    await base.writeDocuments(batch.writes());
    expect(
      await base
        .collection('days_g1')
        .find({}, { sort: { _id: 1 } })
        .toArray(),
    ).toEqual([
      { _id: '2026-01-01', orders: 6 },
      { _id: '2026-01-02', orders: 1 },
    ]);
    expect(await base.collection('days').countDocuments()).toBe(1);
  });

  it('when a query names no _id, the documents the batch changed decide over the stored ones', async () => {
    const base = openSqliteReadStore({ file: ':memory:' });
    const lines = base.collection<Line>('lines');
    await lines.createIndex({ saleId: 1 });
    await lines.insertOne({ _id: 'a', saleId: 1, open: true });
    await lines.insertOne({ _id: 'b', saleId: 1, open: true });
    const batch = new BatchStore(base).collection<Line>('lines');
    await batch.updateOne({ _id: 'a' }, { $set: { saleId: 2 } });
    await batch.insertOne({ _id: 'c', saleId: 1, open: false });

    expect((await batch.find({ saleId: 1 }, { sort: { _id: 1 } }).toArray()).map((line) => line._id)).toEqual(['b', 'c']);
    expect(await batch.updateMany({ saleId: 1 }, { $set: { open: false } })).toMatchObject({ matchedCount: 2, modifiedCount: 1 });
    expect((await batch.find({ open: true }).toArray()).map((line) => line._id)).toEqual(['a']);
  });
});
