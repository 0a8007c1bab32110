import { describe, expect, it } from 'vitest';
import { demoCatalog, demoOrders } from '../../../src/cli/demo/demo-data.ts';
import type { OrderPayload } from '../../../src/cli/demo/demo-data.ts';
import { orderImportJsonSchema } from '../../../src/contracts/json-schemas.ts';
import { orderImportPayload } from '../../../src/contracts/order-import.ts';
import { jsonSchemaCheck, zodCheck } from '../../support/contract-checks.ts';

const catalog = demoCatalog(11);
const from = new Date('2026-01-01T00:00:00+01:00');
const to = new Date('2026-12-31T23:59:59+01:00');
const options = { seed: 11, count: 2_000, catalog, from, to };

const take = (orders: Iterable<OrderPayload>, count: number): OrderPayload[] => {
  const taken: OrderPayload[] = [];
  for (const order of orders) {
    if (taken.length === count) break;
    taken.push(order);
  }
  return taken;
};

const orders = [...demoOrders(options)];
const byContract = jsonSchemaCheck(orderImportJsonSchema());
const byParser = zodCheck(orderImportPayload);

/** "increment_id: what is wrong" for each order the check finds fault with. */
const issuesOf = (list: OrderPayload[], check: (order: OrderPayload) => string | undefined): string[] =>
  list.flatMap((order) => {
    const issue = check(order);
    return issue === undefined ? [] : [`${order.increment_id}: ${issue}`];
  });
const cents = (amount: number): number => Math.round(amount * 100);

describe('demo orders', () => {
  it('when generated twice from the same seed, are byte-identical', () => {
    expect(JSON.stringify([...demoOrders(options)])).toBe(JSON.stringify(orders));
  });

  it('when generated from another seed, differ', () => {
    expect(JSON.stringify(take(demoOrders({ ...options, seed: 12 }), 50))).not.toBe(JSON.stringify(orders.slice(0, 50)));
  });

  it('validate, order by order, against the JSON Schema of the order-import contract', () => {
    expect(orders).toHaveLength(2_000);
    expect(issuesOf(orders, byContract)).toEqual([]);
  });

  it('are accepted by the order import parser', () => {
    expect(issuesOf(orders, byParser)).toEqual([]);
  });

  it('number orders with unique digits that increase with their creation instant', () => {
    expect(orders[0]?.increment_id).toBe('100000001');
    const outOfOrder = orders.slice(1).filter((order, i) => {
      const previous = orders[i] as OrderPayload;
      return Number(order.increment_id) <= Number(previous.increment_id) || Date.parse(order.created_at) < Date.parse(previous.created_at);
    });
    expect(outOfOrder).toEqual([]);
    expect(new Set(orders.map((order) => order.increment_id)).size).toBe(orders.length);
  });

  it('date orders within the period, in Paris time: +01:00 in winter, +02:00 in summer', () => {
    const outside = orders.filter((order) => Date.parse(order.created_at) < from.getTime() || Date.parse(order.created_at) > to.getTime());
    expect(outside).toEqual([]);
    const offsetInMonth = (month: string): Set<string> =>
      new Set(orders.filter((order) => order.created_at.slice(5, 7) === month).map((order) => order.created_at.slice(19)));
    expect(offsetInMonth('01')).toEqual(new Set(['+01:00']));
    expect(offsetInMonth('07')).toEqual(new Set(['+02:00']));
    const month = (order: OrderPayload): string => order.created_at.slice(0, 7);
    expect(month(orders[0] as OrderPayload)).toBe('2026-01');
    expect(month(orders.at(-1) as OrderPayload)).toBe('2026-12');
  });

  it('place more orders in the evening than in the small hours', () => {
    const atHours = (hours: string[]): number => orders.filter((order) => hours.includes(order.created_at.slice(11, 13))).length;
    expect(atHours(['20', '21'])).toBeGreaterThan(5 * atHours(['03', '04']));
  });

  it('are placed by French customers, delivered at French addresses', () => {
    const postcodeOf: Record<string, RegExp> = { Paris: /^750(0[1-9]|1[0-9]|20)$/, Lyon: /^6900[1-9]$/, Marseille: /^130(0[1-9]|1[0-6])$/ };
    const issues = issuesOf(orders, ({ customer, shipping_address: address }) => {
      if (address.country_id !== 'FR') return `country ${address.country_id}`;
      if (customer.phone !== undefined && !/^\+33[67][0-9]{8}$/.test(customer.phone)) return `phone ${customer.phone}`;
      if (postcodeOf[address.city]?.test(address.postcode) === false) return `${address.postcode} ${address.city}`;
      const lastname = customer.lastname
        .normalize('NFD')
        .replace(/[^A-Za-z]/g, '')
        .toLowerCase();
      return customer.email.includes(lastname) ? undefined : `e-mail ${customer.email} of ${customer.lastname}`;
    });
    expect(issues).toEqual([]);
    expect(orders.some((order) => order.shipping_address.city === 'Paris')).toBe(true);
    expect(new Set(orders.map((order) => order.shipping_address.city)).size).toBeGreaterThan(20);
  });

  it('come mostly from distinct customers, some of them returning', () => {
    const emails = new Set(orders.map((order) => order.customer.email));
    expect(emails.size).toBeGreaterThan(0.8 * orders.length);
    expect(emails.size).toBeLessThan(orders.length);
  });

  it('hold 1 to 4 lines of 1 or 2 units, priced as the catalog when taken from it', () => {
    const bySku = new Map(catalog.map((item) => [item.sku, item]));
    expect(issuesOf(orders, (order) => (order.items.length >= 1 && order.items.length <= 4 ? undefined : `${order.items.length} lines`))).toEqual([]);
    const lines = orders.flatMap((order) => order.items);
    const lineIssues = lines.flatMap((line) => {
      if (line.qty_ordered !== 1 && line.qty_ordered !== 2) return [`${line.sku}: ${line.qty_ordered} units`];
      const product = bySku.get(line.sku);
      // Off-catalog lines must say who ships them and at what cost: there is nothing to fall back on.
      if (product === undefined)
        return line.supplier === null && line.wholesale_price !== undefined && line.carrier !== undefined ? [] : [`${line.sku} off catalog`];
      if (line.price !== product.price || line.name !== product.name) return [`${line.sku} differs from the catalog`];
      const bulky = ['Geodis', 'DB Schenker', 'Kuehne+Nagel'].includes(product.carrier ?? '');
      return (line.requires_appointment === true) === bulky ? [] : [`${line.sku} appointment`];
    });
    expect(lineIssues).toEqual([]);
    expect(lines.some((line) => !bySku.has(line.sku))).toBe(true);
    expect(lines.filter((line) => line.supplier === undefined).length).toBeGreaterThan(0.9 * lines.length);
    expect(lines.some((line) => line.supplier !== undefined && bySku.has(line.sku))).toBe(true);
  });

  it('total the lines and the shipping to the cent, and record what was paid', () => {
    const issues = issuesOf(orders, ({ items, shipping_amount: shipping = 0, grand_total: total = -1, payment }) => {
      const lines = items.reduce((sum, line) => sum + cents(line.price) * line.qty_ordered, 0);
      if (cents(total) !== lines + cents(shipping) || cents(total) / 100 !== total) return `total ${total}`;
      if (payment?.amount_paid !== (payment?.status === 'paid' ? total : 0)) return `paid ${payment?.amount_paid} of ${total}`;
      return ['card', 'paypal', 'bank_transfer', 'financing'].includes(payment.method) ? undefined : `method ${payment.method}`;
    });
    expect(issues).toEqual([]);
    expect(orders.some((order) => order.shipping_amount === 0) && orders.some((order) => (order.shipping_amount ?? 0) > 0)).toBe(true);
  });

  it('are mostly paid, some pending, rarely failed', () => {
    const share = (status: string): number => orders.filter((order) => order.payment?.status === status).length / orders.length;
    expect(share('paid')).toBeGreaterThan(0.8);
    expect(share('pending')).toBeGreaterThan(0.02);
    expect(share('failed')).toBeGreaterThan(0);
    expect(share('failed')).toBeLessThan(0.05);
  });

  it('when iterated again, start over with the same orders', () => {
    const again = demoOrders({ ...options, count: 10 });
    expect(take(again, 10)).toEqual(take(again, 10));
  });

  it('when asked for ten million, makes only the orders that are taken', () => {
    const iterator = demoOrders({ ...options, count: 10_000_000 })[Symbol.iterator]();
    const firstFive = Array.from({ length: 5 }, () => iterator.next());
    expect(firstFive.every((result) => result.done === false)).toBe(true);
    expect(firstFive.map((result) => (result.done ? '' : result.value.increment_id))).toEqual([
      '100000001',
      '100000002',
      '100000003',
      '100000004',
      '100000005',
    ]);
  });

  it('when a hundred thousand are made, all have their own increment id', () => {
    const ids = new Set<string>();
    let count = 0;
    for (const order of demoOrders({ ...options, count: 100_000 })) {
      ids.add(order.increment_id);
      count += 1;
    }
    expect(count).toBe(100_000);
    expect(ids.size).toBe(100_000);
  }, 180_000);

  it('when asked for none, yields none, even without a catalog', () => {
    expect([...demoOrders({ ...options, count: 0, catalog: [] })]).toEqual([]);
  });

  it.each([
    ['a negative count', { count: -1 }],
    ['a fractional count', { count: 1.5 }],
    ['a period that ends before it starts', { from: to, to: from }],
    ['an empty catalog', { catalog: [] }],
  ])('when given %s, refuses with a RangeError', (_, change) => {
    expect(() => demoOrders({ ...options, ...change })).toThrow(RangeError);
  });
});
