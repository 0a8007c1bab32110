import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../support/api-harness.ts';
import { anOrder } from './core/orders/orders-api.ts';

/**
 * Numbers a client should never send, on every API group (issue 16): each is refused in the group's
 * envelope, naming the field, and appends nothing (the store's head position is the same after).
 *
 * The hardened bodies are specified where they live, and not repeated here: gzip, deflate and br
 * bodies read, an undecodable one 400, an unknown encoding 415 (content-encoding.test.ts); JSON sent
 * as text/plain or without a type read, a body that is not JSON 415 in each envelope
 * (legacy-clients.test.ts). What is added here is their meeting with hostile numbers.
 */

const importPath = '/api/api-add-new-order-api-shopping';

/** The order as JSON text after `change`: JSON.stringify cannot write 1e999, a client can. */
const orderJson = (change: (order: Record<string, any>) => void = () => undefined): string => {
  const order = structuredClone(anOrder()) as Record<string, any>;
  change(order);
  return JSON.stringify(order);
};

const coreInvalid = (message: string) => ({ success: false, error: 'invalid_request', message });

const orderCases: [string, string, string][] = [
  ['the grand total is 1e308', orderJson((order) => (order.grand_total = 1e308)), 'grand_total: must be an amount of at most 1000000'],
  ['an item is priced 1e308', orderJson((order) => (order.items[0].price = 1e308)), 'items.0.price: must be an amount of at most 1000000'],
  [
    'the grand total is 1e999, which JSON reads as Infinity',
    orderJson().replace('"grand_total":1407.8', '"grand_total":1e999'),
    'grand_total: Invalid input: expected number, received Infinity',
  ],
  ['a price is the string "NaN"', orderJson((order) => (order.items[1].price = 'NaN')), 'items.1.price: Invalid input: expected number, received string'],
  ['a price is the string "1e308"', orderJson((order) => (order.items[1].price = '1e308')), 'items.1.price: Invalid input: expected number, received string'],
  ['a price is negative', orderJson((order) => (order.items[2].price = -0.01)), 'items.2.price: must be an amount of at least 0'],
  ['a price has three decimals', orderJson((order) => (order.items[2].price = 129.999)), 'items.2.price: must be an amount with at most 2 decimals'],
  ['the shipping is 1e-7', orderJson((order) => (order.shipping_amount = 1e-7)), 'shipping_amount: must be an amount with at most 2 decimals'],
  [
    'the amount paid is 0.1 + 0.2 as a double writes it',
    orderJson((order) => (order.payment.amount_paid = 0.1 + 0.2)),
    'payment.amount_paid: must be an amount with at most 2 decimals',
  ],
  [
    'a wholesale price is beyond a million',
    orderJson((order) => (order.items[0].wholesale_price = 1_000_000.01)),
    'items.0.wholesale_price: must be an amount of at most 1000000',
  ],
  ['a quantity is a billion', orderJson((order) => (order.items[0].qty_ordered = 1e9)), 'items.0.qty_ordered: must be at most 10000'],
  ['a quantity is negative', orderJson((order) => (order.items[0].qty_ordered = -3)), 'items.0.qty_ordered: must be at least 1'],
  [
    'a quantity is the string "NaN"',
    orderJson((order) => (order.items[0].qty_ordered = 'NaN')),
    'items.0.qty_ordered: Invalid input: expected number, received string',
  ],
  [
    'every amount is within bounds but the lines add up to more than a million',
    orderJson((order) => Object.assign(order.items[0], { qty_ordered: 10_000, price: 999_999.99 })),
    'items: the lines and the shipping add up to more than 1000000',
  ],
];

describe('hostile numbers', () => {
  let api: ApiHarness;
  let core: string;
  let chatbot: string;
  let supplier: string;
  let staff: string;
  beforeAll(async () => {
    api = await startApi();
    [core, chatbot, supplier, staff] = await Promise.all([
      api.tokenFor('core'),
      api.tokenFor('chatbot'),
      api.tokenFor('supplier-a'),
      api.tokenFor('core', 'back-office'),
    ]);
  });
  afterAll(async () => api.close());

  /** Runs a request and answers it with whether the store's head moved. */
  const appendsNothing = async (request: () => PromiseLike<{ status: number; body: unknown }>) => {
    const before = await api.runtime.eventStore.headPosition();
    const response = await request();
    return { status: response.status, body: response.body, appended: (await api.runtime.eventStore.headPosition()) !== before };
  };

  const postOrder = (json: string | Buffer, headers: Record<string, string> = {}) =>
    api.request
      .post(importPath)
      .set({ Authorization: `Bearer ${core}`, 'Content-Type': 'application/json', ...headers })
      .send(json as string);

  describe('in an imported order (core API)', () => {
    it.each(orderCases)('when %s, it answers 400 naming the field, in the core envelope, and appends nothing', async (_case, json, message) => {
      expect(await appendsNothing(() => postOrder(json))).toEqual({ status: 400, body: coreInvalid(message), appended: false });
    });

    it('when the amounts are at their bounds, the order is imported: the bounds are inclusive', async () => {
      const json = orderJson((order) => {
        order.items = [{ sku: 'BUF-MAX', name: 'Buffet', qty_ordered: 1, price: 1_000_000, supplier: null }];
        Object.assign(order, { grand_total: 1_000_000, shipping_amount: 0 });
        order.payment.amount_paid = 1_000_000;
      });

      const response = await postOrder(json);

      expect([response.status, response.body.created]).toEqual([201, true]);
    });

    it('when a gzip body carries a total of 1e308, it is inflated and then refused like a plain one', async () => {
      const body = gzipSync(orderJson((order) => (order.grand_total = 1e308)));

      const outcome = await appendsNothing(() => postOrder(body, { 'Content-Encoding': 'gzip' }).serialize((bytes) => bytes));

      expect(outcome).toEqual({ status: 400, body: coreInvalid('grand_total: must be an amount of at most 1000000'), appended: false });
    });

    it('when a text/plain body carries an item priced 1e308, it is read as JSON and then refused', async () => {
      const outcome = await appendsNothing(() =>
        postOrder(
          orderJson((order) => (order.items[0].price = 1e308)),
          { 'Content-Type': 'text/plain' },
        ),
      );

      expect(outcome).toEqual({ status: 400, body: coreInvalid('items.0.price: must be an amount of at most 1000000'), appended: false });
    });

    it('when an order comes in an unknown encoding, it answers 415 and appends nothing', async () => {
      const outcome = await appendsNothing(() => postOrder(orderJson(), { 'Content-Encoding': 'zstd-custom' }));

      expect(outcome).toEqual({
        status: 415,
        body: { success: false, error: 'Unsupported Media Type', message: 'The Content-Encoding zstd-custom is not supported (gzip, deflate, br or identity)' },
        appended: false,
      });
    });

    it.each(['1e308', 'NaN', '-1', '99999999999999999999'])('when a sale is asked for by the ID %s, it answers 400 in the core envelope', async (id) => {
      const outcome = await appendsNothing(() => api.request.get(`/api/sale/${id}`).set('Authorization', `Bearer ${core}`));

      expect(outcome).toEqual({ status: 400, body: coreInvalid('id: must be a positive integer'), appended: false });
    });
  });

  describe('in the chatbot API', () => {
    it.each(['1e308', 'NaN', '-5', '2.5'])('when sale_product_id is %s, the SAV status answers 400 in French naming it', async (value) => {
      const outcome = await appendsNothing(() =>
        api.request.get(`/api/customer/sav-status?increment_id=100004512&sale_product_id=${value}`).set('X-API-Token', chatbot),
      );

      expect(outcome).toEqual({
        status: 400,
        body: {
          success: false,
          error: 'Paramètres invalides',
          message: 'Le champ sale_product_id doit être un identifiant de produit de commande (entier positif)',
        },
        appended: false,
      });
    });

    it('when a SAV names the product 1e308, it answers 400 in French naming the field and records nothing', async () => {
      const body = {
        increment_id: '100004512',
        email: 'claire.martin@example.org',
        sale_product_id: 1e308,
        complaint_name: 'Produit endommagé',
        complaint: 'Le pied est fendu.',
      };

      const outcome = await appendsNothing(() => api.request.post('/api/sav').set('X-API-Token', chatbot).send(body));

      expect(outcome).toEqual({
        status: 400,
        body: {
          success: false,
          error: 'Paramètres invalides',
          message: 'Le champ sale_product_id doit être un identifiant de produit de commande (entier positif)',
        },
        appended: false,
      });
    });
  });

  describe('in the supplier API', () => {
    it.each(['1e308', 'NaN', '-1', '0', '99999999999999999999'])(
      'when the page is %s, get-sales answers 400 in the supplier envelope naming it',
      async (page) => {
        const outcome = await appendsNothing(() => api.request.get(`/api/supplier-a/get-sales?page=${page}`).set('Authorization', `Bearer ${supplier}`));

        expect(outcome).toEqual({ status: 400, body: { success: false, message: 'Invalid page: expected a positive integer' }, appended: false });
      },
    );
  });

  describe('in GraphQL mutation arguments', () => {
    it.each([
      ['1e308', 'Int cannot represent non-integer value: 1e308'],
      ['2147483648', 'Int cannot represent non 32-bit signed integer value: 2147483648'],
      ['"NaN"', 'Int cannot represent non-integer value: "NaN"'],
    ])('when a refund ID is %s, the operation is refused in the GraphQL envelope naming the value, and nothing is recorded', async (value, message) => {
      const query = `mutation { markRefundPaid(incrementId: "100004512", refundId: ${value}) { status } }`;

      const outcome = await appendsNothing(() => api.request.post('/graphql').set('Authorization', `Bearer ${staff}`).send({ query }));

      // graphql-yoga answers a document that does not validate with 200 to a client accepting application/json.
      expect(outcome).toMatchObject({ status: 200, appended: false, body: { errors: [{ message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] } });
      expect(outcome.body).not.toHaveProperty('data');
    });
  });
});
