import { afterEach, beforeEach, describe, expect, it as vitestIt } from 'vitest';
import type { Document, Filter, ReadCollection, ReadStore, UpdateFilter } from '../../../src/projections/read-store/read-store.ts';

/** The driver types `_id` as an ObjectId unless the schema says otherwise; these tests use plain ids. */
interface Item extends Document {
  _id?: Id;
}
type Id = string | number;
/** The driver's types refuse array operators on a schema with free-form fields; the server accepts them. */
const arrayUpdate = (update: Document) => update as UpdateFilter<Item>;

/**
 * The behaviour every adapter of the read-store port must have: MongoDB's, for the port's surface.
 * Written once, run against each adapter. Results are compared without regard to key order, and
 * every query whose order matters sorts explicitly (MongoDB guarantees no natural order).
 */
/**
 * Cases a backend is known not to support, by test name, each with the reason. They still run, and
 * must fail there (`it.fails`): once the backend supports one, its entry has to go.
 */
export type UnsupportedCases = Readonly<Record<string, string>>;

export function readStoreContract(
  name: string,
  open: () => Promise<{ store: ReadStore; cleanup: () => Promise<void> }>,
  unsupported: UnsupportedCases = {},
): void {
  const titles = new Set<string>();
  const it = (title: string, fn: () => Promise<void>) => {
    titles.add(title);
    (title in unsupported ? vitestIt.fails : vitestIt)(title, fn);
  };

  describe(`read store contract: ${name}`, () => {
    vitestIt('lists as unsupported only cases the contract has', () => {
      expect(Object.keys(unsupported).filter((title) => !titles.has(title))).toEqual([]);
    });

    let store: ReadStore;
    let cleanup: () => Promise<void>;
    let items: ReadCollection<Item>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
      items = store.collection<Item>('items');
    });
    afterEach(async () => cleanup());

    const seed = async (...docs: Item[]) => {
      for (const doc of docs) await items.insertOne(doc);
    };
    const ids = (docs: Item[]) => docs.map((doc) => doc._id);
    const get = (id: unknown) => items.findOne({ _id: id as Id });
    const rejection = async (promise: Promise<unknown>): Promise<{ code?: unknown }> => {
      const error = await promise.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(Error);
      return error as { code?: unknown };
    };

    describe('insert and read', () => {
      it('stores a document and reads it back by _id', async () => {
        const result = await items.insertOne({ _id: 'a', name: 'chair', tags: ['wood'], size: { h: 90 } });
        expect(result.insertedId).toBe('a');
        expect(await get('a')).toEqual({ _id: 'a', name: 'chair', tags: ['wood'], size: { h: 90 } });
        expect(await get('missing')).toBeNull();
      });

      it('assigns an _id to a document inserted without one', async () => {
        const { insertedId } = await items.insertOne({ name: 'lamp' } as Item);
        expect(insertedId).toBeTruthy();
        expect(await get(insertedId)).toEqual({ _id: insertedId, name: 'lamp' });
      });

      it('refuses a second document with the same _id and keeps the first', async () => {
        await seed({ _id: 'a', name: 'chair' });
        expect((await rejection(items.insertOne({ _id: 'a', name: 'table' }))).code).toBe(11000);
        expect(await get('a')).toEqual({ _id: 'a', name: 'chair' });
        expect(await items.countDocuments()).toBe(1);
      });

      it('keeps dates as dates', async () => {
        await seed({ _id: 'a', at: new Date('2024-05-01T10:00:00Z') });
        const found = await items.findOne({ at: { $gte: new Date('2024-05-01T00:00:00Z') } });
        expect(found?.at).toEqual(new Date('2024-05-01T10:00:00Z'));
      });

      it('hands out copies: changing a result does not change the store', async () => {
        const doc = { _id: 'a', tags: ['x'], size: { h: 1 } };
        await seed(doc);
        doc.tags.push('changed after insert');
        const found = await get('a');
        found!.tags.push('y');
        (found!.size as Document).h = 2;
        const [listed] = await items.find({}).toArray();
        listed!.tags.push('z');
        expect(await get('a')).toEqual({ _id: 'a', tags: ['x'], size: { h: 1 } });
      });
    });

    describe('queries', () => {
      beforeEach(async () => {
        await seed(
          { _id: 1, sku: 'A', qty: 5, price: 10, tags: ['red', 'big'], supplier: { id: 7, country: 'FR' } },
          { _id: 2, sku: 'B', qty: 0, price: 20, tags: ['blue'], supplier: { id: 8, country: 'DE' } },
          { _id: 3, sku: 'C', qty: 5, price: 5, tags: [], supplier: { id: 7, country: 'FR' } },
          { _id: 4, sku: 'D', qty: 12, price: 20 },
        );
      });

      it('filters with comparison, $in, dotted paths and array elements', async () => {
        expect(ids(await items.find({ qty: { $gt: 0, $lt: 10 } }, { sort: { _id: 1 } }).toArray())).toEqual([1, 3]);
        expect(ids(await items.find({ sku: { $in: ['B', 'D', 'Z'] } }, { sort: { _id: 1 } }).toArray())).toEqual([2, 4]);
        expect(ids(await items.find({ 'supplier.id': 7 }, { sort: { _id: 1 } }).toArray())).toEqual([1, 3]);
        expect(ids(await items.find({ tags: 'blue' }).toArray())).toEqual([2]);
        expect(ids(await items.find({ supplier: { $exists: false } }).toArray())).toEqual([4]);
        expect(ids(await items.find({ $or: [{ sku: 'A' }, { price: 5 }] }, { sort: { _id: -1 } }).toArray())).toEqual([3, 1]);
      });

      it('sorts on several keys, then skips and limits', async () => {
        const sorted = await items.find({}, { sort: { price: -1, qty: 1 } }).toArray();
        expect(ids(sorted)).toEqual([2, 4, 1, 3]);
        expect(ids(await items.find({}, { sort: { price: -1, qty: 1 }, skip: 1, limit: 2 }).toArray())).toEqual([4, 1]);
        expect(
          ids(
            await items
              .find(
                {},
                {
                  sort: [
                    ['qty', 'desc'],
                    ['_id', 'asc'],
                  ],
                },
              )
              .toArray(),
          ),
        ).toEqual([4, 1, 3, 2]);
      });

      it('sorts missing and null before numbers, numbers before strings, booleans and dates', async () => {
        await items.deleteMany({});
        await seed(
          { _id: 'date', rank: new Date(0) },
          { _id: 'bool', rank: true },
          { _id: 'string', rank: 'x' },
          { _id: 'number', rank: 3 },
          { _id: 'null', rank: null },
          { _id: 'missing' },
        );
        expect(ids(await items.find({}, { sort: { rank: 1, _id: 1 } }).toArray())).toEqual(['missing', 'null', 'number', 'string', 'bool', 'date']);
        expect(ids(await items.find({}, { sort: { rank: -1, _id: 1 } }).toArray())).toEqual(['date', 'bool', 'string', 'number', 'missing', 'null']);
      });

      it('projects by inclusion (with _id unless excluded) and by exclusion', async () => {
        expect(await items.findOne({ _id: 1 }, { projection: { sku: 1, 'supplier.country': 1 } })).toEqual({ _id: 1, sku: 'A', supplier: { country: 'FR' } });
        expect(await items.findOne({ _id: 1 }, { projection: { sku: 1, _id: 0 } })).toEqual({ sku: 'A' });
        expect(await items.findOne({ _id: 1 }, { projection: { tags: 0, supplier: 0, price: 0 } })).toEqual({ _id: 1, sku: 'A', qty: 5 });
      });

      it("keeps the document's own field order, whatever the projection's", async () => {
        expect(Object.keys((await items.findOne({ _id: 1 }, { projection: { supplier: 1, sku: 1 } }))!)).toEqual(['_id', 'sku', 'supplier']);
        expect(Object.keys((await items.findOne({ _id: 1 }, { projection: { supplier: 0, sku: 0 } }))!)).toEqual(['_id', 'qty', 'price', 'tags']);
      });

      it('projects top-level fields of every match, leaving out those a document lacks and keeping nulls', async () => {
        await items.updateOne({ _id: 4 }, { $set: { tags: null } });
        const found = await items.find({ price: { $gte: 10 } }, { sort: { _id: 1 }, projection: { sku: 1, tags: 1, supplier: 1 } }).toArray();
        expect(found).toEqual([
          { _id: 1, sku: 'A', tags: ['red', 'big'], supplier: { id: 7, country: 'FR' } },
          { _id: 2, sku: 'B', tags: ['blue'], supplier: { id: 8, country: 'DE' } },
          { _id: 4, sku: 'D', tags: null },
        ]);
      });

      it('sorts on a field the projection leaves out', async () => {
        const found = await items.find({}, { sort: { price: 1, _id: 1 }, projection: { sku: 1, _id: 0 }, limit: 2 }).toArray();
        expect(found).toEqual([{ sku: 'C' }, { sku: 'A' }]);
      });

      it('findOne takes the first document in the sort order', async () => {
        expect((await items.findOne({ price: 20 }, { sort: { qty: -1 } }))?._id).toBe(4);
        expect((await items.findOne({}, { sort: { price: 1 }, skip: 1 }))?._id).toBe(1);
      });

      it('counts documents, with or without a filter', async () => {
        expect(await items.countDocuments()).toBe(4);
        expect(await items.countDocuments({ price: 20 })).toBe(2);
        expect(await items.countDocuments({ price: 99 })).toBe(0);
      });
    });

    describe('update operators', () => {
      beforeEach(async () => {
        await seed({ _id: 'a', qty: 1, tags: ['x'], lines: [{ sku: 'A', qty: 1 }], address: { city: 'Lyon', zip: '69001' }, note: 'n' });
      });

      it('applies $set, $unset, $inc and dotted paths, and reports one modified document', async () => {
        const result = await items.updateOne(
          { _id: 'a' },
          { $set: { 'address.city': 'Paris', 'status.code': 'open' }, $unset: { note: '' }, $inc: { qty: 2, views: 1 } },
        );
        expect(result).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null });
        expect(await get('a')).toEqual({
          _id: 'a',
          qty: 3,
          views: 1,
          tags: ['x'],
          lines: [{ sku: 'A', qty: 1 }],
          address: { city: 'Paris', zip: '69001' },
          status: { code: 'open' },
        });
      });

      it('applies $push (with $each), $addToSet (with $each) and $pull', async () => {
        await items.updateOne({ _id: 'a' }, arrayUpdate({ $push: { lines: { sku: 'B', qty: 2 }, history: { $each: ['created', 'paid'] } } }));
        await items.updateOne({ _id: 'a' }, { $addToSet: { tags: { $each: ['x', 'y', 'y'] } } });
        await items.updateOne({ _id: 'a' }, arrayUpdate({ $pull: { lines: { qty: { $lt: 2 } } } }));
        const doc = await get('a');
        expect(doc?.lines).toEqual([{ sku: 'B', qty: 2 }]);
        expect(doc?.history).toEqual(['created', 'paid']);
        expect(doc?.tags).toEqual(['x', 'y']);
      });

      it('updates the array element the filter matched, with the positional operator', async () => {
        await items.updateOne({ _id: 'a' }, arrayUpdate({ $push: { lines: { sku: 'B', qty: 1 } } }));
        expect(await items.updateOne({ _id: 'a', 'lines.sku': 'B' }, { $inc: { 'lines.$.qty': 4 } })).toMatchObject({ modifiedCount: 1 });
        expect((await get('a'))?.lines).toEqual([
          { sku: 'A', qty: 1 },
          { sku: 'B', qty: 5 },
        ]);
      });

      it('applies $max and $min only when they change the value', async () => {
        expect((await items.updateOne({ _id: 'a' }, { $max: { qty: 0 } })).modifiedCount).toBe(0);
        expect((await items.updateOne({ _id: 'a' }, { $max: { qty: 4 }, $min: { lowest: 9 } })).modifiedCount).toBe(1);
        await items.updateOne({ _id: 'a' }, { $min: { lowest: 3 } });
        expect(await get('a')).toMatchObject({ qty: 4, lowest: 3 });
      });

      it('counts a match that changes nothing as matched but not modified', async () => {
        const unchanged = { matchedCount: 1, modifiedCount: 0, upsertedCount: 0 };
        expect(await items.updateOne({ _id: 'a' }, { $set: { qty: 1, 'address.city': 'Lyon' } })).toMatchObject(unchanged);
        expect(await items.updateOne({ _id: 'a' }, { $addToSet: { tags: 'x' } })).toMatchObject(unchanged);
        expect(await items.updateOne({ _id: 'a' }, { $unset: { absent: '' } })).toMatchObject(unchanged);
      });

      it('matches nothing without upsert', async () => {
        expect(await items.updateOne({ _id: 'zz' }, { $set: { qty: 1 } })).toMatchObject({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedCount: 0,
          upsertedId: null,
        });
        expect(await items.countDocuments()).toBe(1);
      });

      it('ignores $setOnInsert when the document exists', async () => {
        await items.updateOne({ _id: 'a' }, { $set: { qty: 2 }, $setOnInsert: { createdAt: 'now' } }, { upsert: true });
        expect(await get('a')).not.toHaveProperty('createdAt');
        expect((await get('a'))?.qty).toBe(2);
      });

      it('updates every match with updateMany and counts the ones it changed', async () => {
        await seed({ _id: 'b', qty: 5 }, { _id: 'c', qty: 5 }, { _id: 'd', qty: 9 });
        const result = await items.updateMany({ qty: { $gte: 1, $lte: 5 } }, { $set: { qty: 5 } });
        expect(result).toMatchObject({ matchedCount: 3, modifiedCount: 1, upsertedCount: 0 });
        expect(ids(await items.find({ qty: 5 }, { sort: { _id: 1 } }).toArray())).toEqual(['a', 'b', 'c']);
      });

      it('refuses to change _id, and accepts setting it to its own value', async () => {
        await rejection(items.updateOne({ _id: 'a' }, { $set: { _id: 'b' } }));
        expect(await get('a')).toMatchObject({ qty: 1 });
        expect(await items.updateOne({ _id: 'a' }, { $set: { _id: 'a', qty: 7 } })).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
        expect(await get('a')).toMatchObject({ qty: 7 });
      });

      it('refuses an update without operators', async () => {
        await rejection(items.updateOne({ _id: 'a' }, { qty: 3 } as Document));
        expect((await get('a'))?.qty).toBe(1);
      });

      it('applies concurrent updates of one document one after the other', async () => {
        await Promise.all(Array.from({ length: 50 }, () => items.updateOne({ _id: 'a' }, arrayUpdate({ $inc: { qty: 1 }, $push: { tags: 't' } }))));
        const doc = await get('a');
        expect(doc?.qty).toBe(51);
        expect(doc?.tags).toHaveLength(51);
      });
    });

    describe('upserts', () => {
      it('builds the new document from the filter equality fields, then the operators and $setOnInsert', async () => {
        const result = await items.updateOne(
          { _id: 'o1', 'customer.id': 5, status: { $eq: 'new' }, $and: [{ channel: 'web' }], total: { $gt: 10 }, note: /x/ },
          { $set: { total: 12 }, $inc: { revision: 1 }, $setOnInsert: { createdAt: '2024-01-01' } },
          { upsert: true },
        );
        expect(result).toMatchObject({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: 'o1' });
        expect(await get('o1')).toEqual({
          _id: 'o1',
          customer: { id: 5 },
          status: 'new',
          channel: 'web',
          total: 12,
          revision: 1,
          createdAt: '2024-01-01',
        });
      });

      it('generates an _id when the filter has none', async () => {
        const result = await items.updateOne({ sku: 'A' }, { $set: { qty: 1 } }, { upsert: true });
        expect(result.upsertedCount).toBe(1);
        expect(result.upsertedId).toBeTruthy();
        expect(await get(result.upsertedId)).toEqual({ _id: result.upsertedId, sku: 'A', qty: 1 });
      });

      it('updates instead of inserting once the document exists', async () => {
        await items.updateOne({ _id: 'c' }, { $inc: { n: 1 } }, { upsert: true });
        const second = await items.updateOne({ _id: 'c' }, { $inc: { n: 1 } }, { upsert: true });
        expect(second).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null });
        expect(await get('c')).toEqual({ _id: 'c', n: 2 });
      });

      it('inserts once under concurrent upserts of the same _id', async () => {
        // Five races of twenty at once: a backend that does not isolate upserts loses one for certain, not by chance.
        const ids = ['c0', 'c1', 'c2', 'c3', 'c4'];
        await Promise.all(ids.flatMap((_id) => Array.from({ length: 20 }, () => items.updateOne({ _id }, { $inc: { n: 1 } }, { upsert: true }))));
        expect(await items.find({}, { sort: { _id: 1 } }).toArray()).toEqual(ids.map((_id) => ({ _id, n: 20 })));
      });

      it('misses once an event position is applied: the idempotent projection pattern', async () => {
        const apply = (position: number, upsert: boolean) =>
          items.updateOne({ _id: 'o1', lastPosition: { $lt: position } }, { $set: { lastPosition: position }, $inc: { events: 1 } }, { upsert });

        expect(await apply(10, true)).toMatchObject({ upsertedCount: 1, upsertedId: 'o1' });
        expect(await apply(10, false)).toMatchObject({ matchedCount: 0, modifiedCount: 0 });
        expect((await rejection(apply(10, true))).code).toBe(11000);
        expect(await apply(5, false)).toMatchObject({ matchedCount: 0 });
        expect(await get('o1')).toEqual({ _id: 'o1', lastPosition: 10, events: 1 });

        expect(await apply(11, true)).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
        expect(await get('o1')).toEqual({ _id: 'o1', lastPosition: 11, events: 2 });
      });
    });

    describe('replace and delete', () => {
      beforeEach(async () => {
        await seed({ _id: 'a', name: 'chair', qty: 1 }, { _id: 'b', name: 'table', qty: 1 }, { _id: 'c', name: 'lamp', qty: 2 });
      });

      it('replaces the whole document and keeps its _id', async () => {
        expect(await items.replaceOne({ name: 'chair' }, { name: 'stool' })).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
        expect(await get('a')).toEqual({ _id: 'a', name: 'stool' });
      });

      it('counts an identical replacement as not modified', async () => {
        expect(await items.replaceOne({ _id: 'a' }, { name: 'chair', qty: 1 })).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
      });

      it('replaces with upsert: inserts under the filter _id', async () => {
        expect(await items.replaceOne({ _id: 'z' }, { name: 'desk' })).toMatchObject({ matchedCount: 0, upsertedCount: 0 });
        expect(await items.replaceOne({ _id: 'z' }, { name: 'desk' }, { upsert: true })).toMatchObject({ matchedCount: 0, upsertedCount: 1, upsertedId: 'z' });
        expect(await get('z')).toEqual({ _id: 'z', name: 'desk' });
      });

      it('refuses a replacement with operators or another _id', async () => {
        await rejection(items.replaceOne({ _id: 'a' }, { $set: { name: 'x' } }));
        await rejection(items.replaceOne({ _id: 'a' }, { _id: 'other', name: 'x' }));
        expect(await get('a')).toEqual({ _id: 'a', name: 'chair', qty: 1 });
      });

      it('deletes one or many', async () => {
        expect(await items.deleteOne({ qty: 1 })).toMatchObject({ deletedCount: 1 });
        expect(await items.countDocuments()).toBe(2);
        expect(await items.deleteMany({ qty: { $gte: 1 } })).toMatchObject({ deletedCount: 2 });
        expect(await items.deleteMany({})).toMatchObject({ deletedCount: 0 });
        expect(await items.countDocuments()).toBe(0);
      });
    });

    describe('bulk writes', () => {
      it('applies updateOne operations in order, upserting where asked', async () => {
        await seed({ _id: 'a', n: 1 });
        await items.bulkWrite([
          { updateOne: { filter: { _id: 'a' }, update: { $inc: { n: 1 } } } },
          { updateOne: { filter: { _id: 'b' }, update: { $set: { n: 1 } }, upsert: true } },
          { updateOne: { filter: { _id: 'b' }, update: { $inc: { n: 10 } } } },
          { updateOne: { filter: { _id: 'zz' }, update: { $inc: { n: 1 } } } },
        ]);
        expect(await items.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
          { _id: 'a', n: 2 },
          { _id: 'b', n: 11 },
        ]);
      });

      it('stops an ordered bulk write at the first failure, keeping what came before', async () => {
        await items.createIndex({ email: 1 }, { unique: true });
        await seed({ _id: 'a', email: 'a@x' }, { _id: 'b', email: 'b@x' });
        const failure = await rejection(
          items.bulkWrite([
            { updateOne: { filter: { _id: 'a' }, update: { $set: { seen: true } } } },
            { updateOne: { filter: { _id: 'b' }, update: { $set: { email: 'a@x' } } } },
            { updateOne: { filter: { _id: 'c' }, update: { $set: { email: 'c@x' } }, upsert: true } },
          ]),
        );
        expect(failure.code).toBe(11000);
        expect(await items.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
          { _id: 'a', email: 'a@x', seen: true },
          { _id: 'b', email: 'b@x' },
        ]);
      });
    });

    describe('indexes', () => {
      it('names indexes like MongoDB and creates them idempotently', async () => {
        expect(await items.createIndex({ email: 1 })).toBe('email_1');
        expect(await items.createIndex({ email: 1 })).toBe('email_1');
        expect(await items.createIndex({ shop: 1, at: -1 })).toBe('shop_1_at_-1');
      });

      it('refuses an insert, update or upsert that duplicates a unique key, and changes nothing', async () => {
        await items.createIndex({ email: 1 }, { unique: true });
        await seed({ _id: 'a', email: 'a@x' }, { _id: 'b', email: 'b@x' });

        expect((await rejection(items.insertOne({ _id: 'c', email: 'a@x' }))).code).toBe(11000);
        expect((await rejection(items.updateOne({ _id: 'b' }, { $set: { email: 'a@x', other: 1 } }))).code).toBe(11000);
        expect((await rejection(items.updateOne({ _id: 'd' }, { $set: { email: 'b@x' } }, { upsert: true }))).code).toBe(11000);
        expect((await rejection(items.replaceOne({ _id: 'b' }, { email: 'a@x' }))).code).toBe(11000);

        expect(await items.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
          { _id: 'a', email: 'a@x' },
          { _id: 'b', email: 'b@x' },
        ]);
        await items.updateOne({ _id: 'a' }, { $set: { email: 'new@x' } });
        await items.insertOne({ _id: 'c', email: 'a@x' });
        expect(await items.countDocuments({ email: 'a@x' })).toBe(1);
      });

      it('enforces a compound unique key on the whole key', async () => {
        await items.createIndex({ shop: 1, ref: 1 }, { unique: true });
        await seed({ _id: 1, shop: 'A', ref: 1 }, { _id: 2, shop: 'A', ref: 2 }, { _id: 3, shop: 'B', ref: 1 });
        expect((await rejection(items.insertOne({ _id: 4, shop: 'B', ref: 1 }))).code).toBe(11000);
        expect(await items.countDocuments()).toBe(3);
      });

      it('indexes every element of an array under a unique index', async () => {
        await items.createIndex({ codes: 1 }, { unique: true });
        await seed({ _id: 1, codes: ['x', 'y'] });
        expect((await rejection(items.insertOne({ _id: 2, codes: ['z', 'y'] }))).code).toBe(11000);
        await items.insertOne({ _id: 3, codes: ['z'] });
        expect(ids(await items.find({ codes: 'z' }).toArray())).toEqual([3]);
      });

      it('treats a missing field as null under a unique index, unless the index is sparse', async () => {
        await items.createIndex({ email: 1 }, { unique: true });
        await items.createIndex({ phone: 1 }, { unique: true, sparse: true });
        await seed({ _id: 1, email: 'a@x' }, { _id: 2 });
        expect((await rejection(items.insertOne({ _id: 3 }))).code).toBe(11000);
        expect((await rejection(items.insertOne({ _id: 3, email: null }))).code).toBe(11000);
        await items.insertOne({ _id: 3, email: 'c@x' });
        expect(await items.countDocuments({ phone: { $exists: false } })).toBe(3);
      });

      it('refuses to build a unique index over existing duplicates', async () => {
        await seed({ _id: 1, email: 'a@x' }, { _id: 2, email: 'a@x' });
        expect((await rejection(items.createIndex({ email: 1 }, { unique: true }))).code).toBe(11000);
        await items.insertOne({ _id: 3, email: 'a@x' });
        expect(await items.countDocuments({ email: 'a@x' })).toBe(3);
      });

      it('answers queries on an indexed field as it would without the index, across writes', async () => {
        await items.createIndex({ customer: 1, at: 1 });
        await seed(
          { _id: 1, customer: 'c1', at: 1 },
          { _id: 2, customer: 'c2', at: 2 },
          { _id: 3, customer: ['c1', 'c3'], at: 3 },
          { _id: 4, at: 4 },
          { _id: 5, customer: 'c1', at: 5 },
        );
        await items.updateOne({ _id: 5 }, { $set: { customer: 'c2' } });
        await items.deleteOne({ _id: 1 });
        await items.updateOne({ _id: 6, customer: 'c1' }, { $set: { at: 6 } }, { upsert: true });

        const query = async (filter: Filter<Item>) => ids(await items.find(filter, { sort: { _id: 1 } }).toArray());
        expect(await query({ customer: 'c1' })).toEqual([3, 6]);
        expect(await query({ customer: { $eq: 'c2' }, at: { $gt: 2 } })).toEqual([5]);
        expect(await query({ customer: { $in: ['c3', 'c2'] } })).toEqual([2, 3, 5]);
        expect(await query({ customer: null })).toEqual([4]);
        expect(await query({ customer: 'nobody' })).toEqual([]);
        expect(await items.countDocuments({ customer: 'c2' })).toBe(2);
      });

      it('projects indexed fields with their exact values: numbers, strings, booleans, dates, nulls, missing fields and arrays', async () => {
        await items.createIndex({ shop: 1, rank: 1, label: 1, live: 1, at: 1, tags: 1 });
        const at = new Date('2026-03-29T01:30:00.123Z');
        await seed(
          { _id: 1, shop: 'A', rank: 1, label: 'un', live: true, at, tags: 'solo', other: 'x' },
          { _id: 2, shop: 'A', rank: 2.5, label: '', live: false, at: new Date(0), tags: ['x', 'y'] },
          { _id: 3, shop: 'A', rank: 3, label: null, live: true },
          { _id: 4, shop: 'A', rank: -4, label: 'quatre "4"', live: false, at: new Date('1969-07-20T20:17:00Z'), tags: { nested: 1 } },
          { _id: 5, shop: 'B', rank: 5, label: 'cinq' },
        );
        const found = await items.find({ shop: 'A' }, { sort: { rank: 1 }, projection: { rank: 1, label: 1, live: 1, at: 1, tags: 1 } }).toArray();
        expect(found).toEqual([
          { _id: 4, rank: -4, label: 'quatre "4"', live: false, at: new Date('1969-07-20T20:17:00Z'), tags: { nested: 1 } },
          { _id: 1, rank: 1, label: 'un', live: true, at, tags: 'solo' },
          { _id: 2, rank: 2.5, label: '', live: false, at: new Date(0), tags: ['x', 'y'] },
          { _id: 3, rank: 3, label: null, live: true },
        ]);
        expect(
          await items.find({ shop: 'A', rank: { $gt: 1 } }, { sort: { rank: -1 }, skip: 1, limit: 1, projection: { _id: 0, label: 1 } }).toArray(),
        ).toEqual([{ label: '' }]);
        await items.updateOne({ _id: 3 }, { $set: { label: 'trois' }, $unset: { live: '' } });
        expect(await items.findOne({ _id: 3 }, { projection: { label: 1, live: 1 } })).toEqual({ _id: 3, label: 'trois' });
      });
    });

    describe('aggregation', () => {
      beforeEach(async () => {
        await seed(
          {
            _id: 1,
            shop: 'A',
            total: 10,
            lines: [
              { sku: 'x', qty: 1 },
              { sku: 'y', qty: 2 },
            ],
          },
          { _id: 2, shop: 'B', total: 5, lines: [{ sku: 'x', qty: 3 }] },
          { _id: 3, shop: 'A', total: 7, lines: [] },
          { _id: 4, shop: 'C', total: 1, lines: [{ sku: 'y', qty: 1 }] },
        );
      });

      it('groups, sorts, limits and projects', async () => {
        const result = await items
          .aggregate([
            { $match: { total: { $gte: 5 } } },
            { $group: { _id: '$shop', revenue: { $sum: '$total' }, orders: { $sum: 1 } } },
            { $sort: { revenue: -1 } },
            { $project: { _id: 0, shop: '$_id', revenue: 1, orders: 1 } },
          ])
          .toArray();
        expect(result).toEqual([
          { shop: 'A', revenue: 17, orders: 2 },
          { shop: 'B', revenue: 5, orders: 1 },
        ]);
        expect(await items.aggregate([{ $sort: { total: 1 } }, { $limit: 2 }, { $project: { total: 1 } }]).toArray()).toEqual([
          { _id: 4, total: 1 },
          { _id: 2, total: 5 },
        ]);
      });

      it('unwinds arrays, counts and runs facets', async () => {
        const perSku = await items
          .aggregate([{ $unwind: '$lines' }, { $group: { _id: '$lines.sku', qty: { $sum: '$lines.qty' } } }, { $sort: { _id: 1 } }])
          .toArray();
        expect(perSku).toEqual([
          { _id: 'x', qty: 4 },
          { _id: 'y', qty: 3 },
        ]);
        expect(await items.aggregate([{ $match: { shop: 'A' } }, { $count: 'n' }]).toArray()).toEqual([{ n: 2 }]);
        const [facets] = await items
          .aggregate([{ $facet: { count: [{ $count: 'n' }], top: [{ $sort: { total: -1 } }, { $limit: 1 }, { $project: { _id: 1 } }] } }])
          .toArray();
        expect(facets).toEqual({ count: [{ n: 4 }], top: [{ _id: 1 }] });
      });

      it('looks up another collection of the same store', async () => {
        await store.collection<Item>('shops').insertOne({ _id: 'A', city: 'Lyon' });
        const [joined] = await items
          .aggregate([
            { $match: { _id: 1 } },
            { $lookup: { from: 'shops', localField: 'shop', foreignField: '_id', as: 'shopDoc' } },
            { $project: { shopDoc: 1 } },
          ])
          .toArray();
        expect(joined).toEqual({ _id: 1, shopDoc: [{ _id: 'A', city: 'Lyon' }] });
      });

      it('leaves the stored documents untouched', async () => {
        const [first] = await items.aggregate([{ $match: { _id: 1 } }, { $set: { total: 0 } }]).toArray();
        (first!.lines as Document[]).push({ sku: 'z' });
        expect(await get(1)).toMatchObject({
          total: 10,
          lines: [
            { sku: 'x', qty: 1 },
            { sku: 'y', qty: 2 },
          ],
        });
      });
    });

    describe('collections', () => {
      it('lists the collections written to, not the ones only named', async () => {
        await items.insertOne({ _id: 1 });
        await store.collection<Item>('orders').updateOne({ _id: 'o' }, { $set: { n: 1 } }, { upsert: true });
        store.collection('never-written');
        expect((await store.listCollectionNames()).sort()).toEqual(['items', 'orders']);
      });

      it('drops every collection with its documents and indexes; handles stay usable', async () => {
        await items.createIndex({ email: 1 }, { unique: true });
        await seed({ _id: 1, email: 'a@x' });
        await store.collection<Item>('orders').insertOne({ _id: 'o' });

        await store.dropAll();

        expect(await store.listCollectionNames()).toEqual([]);
        expect(await items.countDocuments()).toBe(0);
        expect(await store.collection<Item>('orders').findOne({ _id: 'o' })).toBeNull();
        await seed({ _id: 1, email: 'a@x' }, { _id: 2, email: 'a@x' });
        expect(await items.countDocuments({ email: 'a@x' })).toBe(2);
      });
    });
  });
}
