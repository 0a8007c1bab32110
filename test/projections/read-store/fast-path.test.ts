import { Query } from 'mingo';
import { update as mingoUpdate } from 'mingo/updater';
import { describe, expect, it } from 'vitest';
import { simplePredicate, simpleUpdate } from '../../../src/projections/read-store/fast-path.ts';
import type { Document } from '../../../src/projections/read-store/read-store.ts';

/**
 * The fast path must decide exactly as the general evaluator (mingo, MongoDB's semantics) does, or
 * step aside: every case here is checked against mingo itself.
 */
const docs: Document[] = [
  { _id: 's1', _position: 4, status: 'open', total: 10 },
  { _id: 's2', _position: 9, status: null, total: '10' },
  { _id: 's3', status: 'closed', total: 12.5, flag: true },
  { _id: 's4', _position: [1, 20], tags: ['a', 'b'], nested: { x: 1 } },
];

const filters: Document[] = [
  { _id: 's1' },
  { _id: 's1', _position: { $lt: 5 } },
  { _id: 's1', _position: { $lt: 4 } },
  { _position: { $lte: 9 } },
  { _position: { $gt: 3, $lt: 9 } },
  { _position: { $ne: 4 } },
  { status: null },
  { status: 'open' },
  { total: { $gte: 10 } },
  { total: { $eq: '10' } },
  { flag: true },
  { missing: { $ne: 1 } },
  { tags: 'a' },
  { _position: { $lt: 5 } },
  { _id: { $in: ['s1', 's3', 'nowhere'] } },
  { status: { $in: [null, 'closed'] } },
  { total: { $in: [10, 12.5] } },
  { total: { $in: ['10'] } },
  { _position: { $in: [] } },
  { tags: { $in: ['a'] } },
];

describe('the fast filter path', () => {
  for (const filter of filters) {
    it(`when filtering on ${JSON.stringify(filter)}, matches the documents mingo matches`, () => {
      const predicate = simplePredicate(filter);
      expect(predicate).toBeDefined();
      const query = new Query(filter);
      for (const doc of docs) {
        const fast = predicate!(doc);
        expect(fast ?? query.test(doc), JSON.stringify(doc)).toBe(query.test(doc));
      }
    });
  }

  it('when a document holds an array or an embedded document where a scalar is compared, steps aside', () => {
    expect(simplePredicate({ _position: { $lt: 5 } })!(docs[3]!)).toBeUndefined();
    expect(simplePredicate({ nested: null })!(docs[3]!)).toBeUndefined();
  });

  it('when the filter uses other operators, dotted paths or non-scalar operands, is not used', () => {
    for (const filter of [
      { $or: [{ a: 1 }] },
      { 'a.b': 1 },
      { a: { $in: [1, [2]] } },
      { a: { $in: [1], $ne: 2 } },
      { a: { $in: 1 } },
      { a: { x: 1 } },
      { a: /x/ },
      { a: { $lt: null } },
      { a: {} },
    ]) {
      expect(simplePredicate(filter), JSON.stringify(filter)).toBeUndefined();
    }
  });
});

const sale: Document = {
  _id: 7,
  _position: 3,
  status: 'processing',
  products: [
    { saleProductId: 1, state: 'new', tracking: null },
    { saleProductId: 2, state: 'new', tracking: null },
  ],
  refunds: [],
  savIds: [4],
  customer: { email: 'a@example.fr' },
  counts: { orders: 2, revenueCents: 15_990 },
};

const viaMingo = (current: Document, modifier: Document): Document | null => {
  const copy = structuredClone(current);
  return mingoUpdate(copy, modifier, undefined, undefined, { cloneMode: 'deep' }).length ? copy : null;
};

const updates: Document[] = [
  { $set: { status: 'complete', _position: 4 } },
  { $set: { 'products.1.state': 'shipped', 'products.1.tracking': 'MC1', _position: 5 } },
  { $set: { status: 'processing' } },
  { $set: { 'customer.email': 'b@example.fr', updatedAt: '2026-11-01T10:00:00Z' } },
  { $push: { refunds: { id: 3, amount: 12.5 } }, $set: { _position: 6 } },
  { $addToSet: { savIds: 4 } },
  { $addToSet: { savIds: 5 } },
  { $push: { newList: 'x' } },
  { $set: { 'products.0': { saleProductId: 1, state: 'cancelled', tracking: null } } },
  { $inc: { 'counts.orders': 1, 'counts.revenueCents': 4_990 }, $set: { _position: 7 } },
  { $inc: { 'counts.refunds': 1, 'counts.revenueCents': -990 } },
  { $inc: { ratio: 0.25 } },
];

describe('the fast update path', () => {
  for (const modifier of updates) {
    it(`when applying ${JSON.stringify(modifier)}, gives mingo's document and leaves the stored one untouched`, () => {
      const before = structuredClone(sale);
      const fast = simpleUpdate(sale, modifier, false);
      expect(fast).not.toBeUndefined();
      expect(fast).toEqual(viaMingo(sale, modifier));
      expect(sale).toEqual(before);
    });
  }

  it('when inserting, applies $setOnInsert; when updating, ignores it', () => {
    expect(simpleUpdate({ _id: 1 }, { $set: { a: 1 }, $setOnInsert: { b: 2 } }, true)).toEqual({ _id: 1, a: 1, b: 2 });
    expect(simpleUpdate({ _id: 1, a: 1 }, { $set: { a: 1 }, $setOnInsert: { b: 2 } }, false)).toBeNull();
  });

  it('when a document is updated, the previous version is left as it was and shares what did not change', () => {
    const before = structuredClone(sale);
    const refund = { id: 1, lines: [1, 2] };
    const next = simpleUpdate(sale, { $push: { refunds: refund }, $set: { 'products.0.state': 'shipped' } }, false)!;

    expect(sale).toEqual(before);
    // Values are stored as given (the stores serialise them when they write): no copy per update.
    expect(next.refunds.at(-1)).toBe(refund);
    expect(next.products[0]).not.toBe(sale.products[0]);
    expect(next.products[1]).toBe(sale.products[1]);
    expect(next.customer).toBe(sale.customer);
  });

  it('when a path is missing on the way, out of an array, conflicting, on _id or uses modifiers, steps aside', () => {
    for (const modifier of [
      { $set: { 'missing.x': 1 } },
      { $set: { 'products.5.state': 'x' } },
      { $set: { 'products.first.state': 'x' } },
      { $set: { status: 'a', 'status.x': 1 } },
      { $set: { _id: 8 } },
      { $push: { savIds: { $each: [1, 2] } } },
      { $push: { status: 'x' } },
      { $inc: { status: 1 } },
      { $inc: { 'counts.orders': 0 } },
      { $inc: { 'counts.orders': '1' } },
      { $unset: { status: '' } },
    ]) {
      expect(simpleUpdate(sale, modifier, false), JSON.stringify(modifier)).toBeUndefined();
    }
  });
});
