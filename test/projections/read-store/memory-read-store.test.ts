import { describe, expect, it } from 'vitest';
import { createMemoryReadStore } from '../../../src/projections/read-store/memory-read-store.ts';
import type { Document, UpdateFilter } from '../../../src/projections/read-store/read-store.ts';
import { readStoreContract } from './read-store-contract.ts';

// The driver types `_id` as an ObjectId unless the schema says otherwise.
interface Order extends Document {
  _id?: number | string;
}

readStoreContract('memory', async () => ({ store: createMemoryReadStore(), cleanup: async () => {} }));

// Filling 100,000 documents one write at a time takes seconds on a busy machine.
const bulk = { timeout: 120_000 };

describe('memory read store', () => {
  it('answers equality queries on an indexed field of 100,000 documents', bulk, async () => {
    const orders = createMemoryReadStore().collection<Order>('orders');
    await orders.createIndex({ customerId: 1 });
    for (let i = 0; i < 100_000; i++) await orders.insertOne({ _id: i, customerId: `c${i % 1000}`, total: i % 7 });

    const found = await orders.find({ customerId: 'c42' }, { sort: { _id: 1 } }).toArray();
    expect(found.map((doc) => doc._id)).toEqual(Array.from({ length: 100 }, (_, k) => 42 + k * 1000));
    expect(await orders.countDocuments({ customerId: { $in: ['c1', 'c2'] }, total: 0 })).toBe(
      Array.from({ length: 100_000 }, (_, i) => i).filter((i) => i % 1000 <= 2 && i % 1000 >= 1 && i % 7 === 0).length,
    );

    await orders.updateOne({ _id: 42 }, { $set: { customerId: 'c43' } });
    expect(await orders.countDocuments({ customerId: 'c42' })).toBe(99);
    expect(await orders.findOne({ customerId: 'c43', _id: 42 })).toEqual({ _id: 42, customerId: 'c43', total: 0 });
  });

  it('indexes the documents already stored when the index is created', bulk, async () => {
    const orders = createMemoryReadStore().collection<Order>('orders');
    for (let i = 0; i < 100_000; i++) await orders.insertOne({ _id: i, ref: `r${i}` });
    await orders.createIndex({ ref: 1 }, { unique: true });
    expect(await orders.findOne({ ref: 'r99999' })).toEqual({ _id: 99999, ref: 'r99999' });
    await expect(orders.insertOne({ _id: 'dup', ref: 'r5' })).rejects.toMatchObject({ code: 11000 });
  });

  it('returns copies from every read and keeps no reference to written values', async () => {
    const items = createMemoryReadStore().collection<Order>('items');
    const lines = [{ sku: 'A' }];
    await items.updateOne({ _id: 1 }, { $set: { lines } }, { upsert: true });
    await items.updateOne({ _id: 1 }, { $push: { history: { at: 1 } } } as Document as UpdateFilter<Order>);
    lines.push({ sku: 'changed' });

    const read = async () => (await items.findOne({ _id: 1 })) as Document;
    (await read()).lines.push({ sku: 'B' });
    (await items.find({ _id: 1 }).toArray())[0]!.history.push('x');
    const [grouped] = await items.aggregate([{ $group: { _id: null, all: { $push: '$$ROOT' } } }]).toArray();
    grouped!.all[0].lines.push({ sku: 'C' });

    expect(await read()).toEqual({ _id: 1, lines: [{ sku: 'A' }], history: [{ at: 1 }] });
    expect(await read()).not.toBe(await read());
  });

  it('sets the generated _id on the inserted document, as the driver does', async () => {
    const items = createMemoryReadStore().collection<Order>('items');
    const doc = { name: 'lamp' } as Order;
    const { insertedId } = await items.insertOne(doc);
    expect(doc._id).toBe(insertedId);
    expect(insertedId).toMatch(/^[0-9a-f]{24}$/);
  });
});
