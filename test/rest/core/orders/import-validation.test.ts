import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anOrder, importPath, startOrdersApi, type OrdersApi } from './orders-api.ts';

/** The body after `change`, as the client would send it (a field set to undefined is left out). */
const orderWith = (change: (order: Record<string, any>) => void): Record<string, unknown> => {
  const order = structuredClone(anOrder()) as Record<string, any>;
  change(order);
  return JSON.parse(JSON.stringify(order));
};

const cases: [string, Record<string, unknown> | unknown[], string][] = [
  ['items are missing', orderWith((order) => delete order.items), 'items: Invalid input: expected array, received undefined'],
  ['items are empty', orderWith((order) => (order.items = [])), 'items: Too small: expected array to have >=1 items'],
  ['a quantity is 0', orderWith((order) => (order.items[0].qty_ordered = 0)), 'items.0.qty_ordered: must be at least 1'],
  ['a quantity is not an integer', orderWith((order) => (order.items[2].qty_ordered = 1.5)), 'items.2.qty_ordered: must be a whole number'],
  ['a price is negative', orderWith((order) => (order.items[1].price = -1)), 'items.1.price: must be an amount of at least 0'],
  ['the e-mail is not one', orderWith((order) => (order.customer.email = 'claire.martin@')), 'customer.email: Invalid email address'],
  [
    'a field beyond the contract is fine but a known field in the same line is wrong',
    orderWith((order) => Object.assign(order.items[1], { colour: 'oak', price: 'free' })),
    'items.1.price: Invalid input: expected number, received string',
  ],
  ['the increment_id is not digits', orderWith((order) => (order.increment_id = 'A-100')), 'increment_id: digits only, 1 to 20'],
  ['the instant has no offset', orderWith((order) => (order.created_at = '2026-10-02T09:14:00')), 'created_at: Invalid ISO datetime'],
  [
    'the supplier is unknown',
    orderWith((order) => (order.items[0].supplier = 'supplier-c')),
    'items.0.supplier: Invalid option: expected one of "supplier-a"|"supplier-b"',
  ],
  [
    'the country is not a code',
    orderWith((order) => (order.shipping_address.country_id = 'France')),
    'shipping_address.country_id: Invalid string: must match pattern /^[A-Z]{2}$/',
  ],
  ['the body is an array of orders', [anOrder()], 'body: Invalid input: expected object, received array'],
];

describe('POST /api/api-add-new-order-api-shopping: an invalid order', () => {
  let api: OrdersApi;
  beforeAll(async () => {
    api = await startOrdersApi();
  });
  afterAll(async () => api.close());

  it.each(cases)('when %s, it answers 400 naming the field and records nothing', async (_case, body, message) => {
    const before = await api.runtime.eventStore.headPosition();

    const response = await api.post(importPath, body);

    expect([response.status, response.body]).toEqual([400, { success: false, error: 'invalid_request', message }]);
    expect(await api.runtime.eventStore.headPosition()).toBe(before);
  });

  it('when the body is not JSON, it answers 400 in the core envelope', async () => {
    const response = await api.post(importPath).set('Content-Type', 'application/json').send('{"increment_id": ');

    expect([response.status, response.body]).toEqual([400, { success: false, error: 'Bad Request', message: 'The request body is not valid JSON' }]);
  });
});
