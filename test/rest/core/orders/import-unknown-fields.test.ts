import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedImport } from '../../../../src/rest/core/orders/import-conflict.ts';
import { anOrder, importPath, startOrdersApi, type OrdersApi } from './orders-api.ts';

/**
 * Spec: "POST /api/api-add-new-order-api-shopping | JSON body with order data from an external shopping API (fields: not shown)".
 * Real marketplace payloads carry many fields beyond the order-import contract: the import accepts
 * them, records them with the order for audit, and no logic acts on them.
 */

/** The order as a marketplace sends it: the contract's fields and its own, at every level. */
const marketplaceOrder = () => {
  const order = anOrder();
  return {
    ...order,
    marketplace_order_ref: 'MKP-2026-88412',
    fees: { commission: 12.4, currency: 'EUR' },
    customer: { ...order.customer, loyalty_tier: 'gold' },
    shipping_address: { ...order.shipping_address, floor: 3, digicode: '4B21' },
    items: order.items.map((item, index) => (index === 1 ? { ...item, colour: 'oak', ean: '3760123456789' } : item)),
  };
};

describe('Spec: "POST /api/api-add-new-order-api-shopping | JSON body with order data from an external shopping API (fields: not shown)"', () => {
  let api: OrdersApi;
  beforeAll(async () => {
    api = await startOrdersApi();
  });
  afterAll(async () => api.close());

  it('an order carrying fields beyond the contract is imported (201), and those fields are recorded with it, where they were sent', async () => {
    const order = marketplaceOrder();

    const response = await api.post(importPath, order);

    expect(response.status).toBe(201);
    const recorded = await recordedImport(api.runtime.eventStore, order.increment_id);
    expect(recorded?.unknownFields).toEqual({
      marketplace_order_ref: 'MKP-2026-88412',
      fees: { commission: 12.4, currency: 'EUR' },
      customer: { loyalty_tier: 'gold' },
      shipping_address: { floor: 3, digicode: '4B21' },
      items: [{}, { colour: 'oak', ean: '3760123456789' }, {}],
    });
  });

  it('the fields beyond the contract reach no part of the sale: its customer, address and lines are the contract fields alone', async () => {
    const order = marketplaceOrder();
    await api.post(importPath, order).expect(201);

    const recorded = await recordedImport(api.runtime.eventStore, order.increment_id);

    expect(recorded?.customer).not.toHaveProperty('loyalty_tier');
    expect(recorded?.shippingAddress).not.toHaveProperty('floor');
    expect(recorded?.products[1]).not.toHaveProperty('colour');
    const sale = await api.request.get(`/api/sale/${recorded?.saleId}`).set('Authorization', `Bearer ${api.coreToken}`);
    expect(sale.status).toBe(200);
    expect(JSON.stringify(sale.body)).not.toMatch(/loyalty_tier|digicode|MKP-2026-88412/);
  });

  it('an order without any such field records none', async () => {
    const order = anOrder();
    await api.post(importPath, order).expect(201);

    const recorded = await recordedImport(api.runtime.eventStore, order.increment_id);

    expect(recorded).not.toHaveProperty('unknownFields');
  });

  it('the same order sent again with other marketplace fields is the same order: 200, nothing recorded, the first fields kept', async () => {
    const order = marketplaceOrder();
    await api.post(importPath, order).expect(201);
    const before = await api.runtime.eventStore.headPosition();

    const again = await api.post(importPath, { ...order, marketplace_order_ref: 'MKP-2026-88412-bis', synced_at: '2026-10-03T10:00:00Z' });

    expect(again.status).toBe(200);
    expect(await api.runtime.eventStore.headPosition()).toBe(before);
    const recorded = await recordedImport(api.runtime.eventStore, order.increment_id);
    expect(recorded?.unknownFields).toMatchObject({ marketplace_order_ref: 'MKP-2026-88412' });
  });

  it("a field named like an object's own members (constructor, toString) is an unknown field like any other", async () => {
    const order = { ...anOrder(), constructor: 'x', toString: 'y' };

    const response = await api.post(importPath, order);

    expect(response.status).toBe(201);
    const recorded = await recordedImport(api.runtime.eventStore, order.increment_id);
    expect(recorded?.unknownFields).toEqual({ constructor: 'x', toString: 'y' });
  });

  describe('within the bounds every reader of the log can afford', () => {
    /** `{ a: { a: ... 'x' } }`, `levels` objects deep. */
    const nested = (levels: number): unknown => {
      let value: unknown = 'x';
      for (let level = 0; level < levels; level++) value = { a: value };
      return value;
    };

    it('when a line carries an unknown field 8 levels deep from the payload, it is recorded as sent', async () => {
      const order = anOrder();
      const sent = { ...order, items: [{ ...order.items[0], extension: nested(5) }, ...order.items.slice(1)] };

      const response = await api.post(importPath, sent);

      expect(response.status).toBe(201);
      const recorded = await recordedImport(api.runtime.eventStore, order.increment_id);
      expect((recorded?.unknownFields as { items: unknown[] }).items[0]).toEqual({ extension: nested(5) });
    });

    it.each([
      [
        'nests one level deeper than 8',
        (order: ReturnType<typeof anOrder>) => ({ ...order, extra: nested(8) }),
        'extra.a.a.a.a.a.a.a.a: a field beyond the contract nested more than 8 levels deep',
      ],
      [
        'holds more than 1,000 values',
        (order: ReturnType<typeof anOrder>) => ({ ...order, tags: Array.from({ length: 1_000 }, (_, index) => `t${index}`) }),
        'tags.999: more than 1000 values in fields beyond the contract',
      ],
      [
        'takes more than 64 KiB',
        (order: ReturnType<typeof anOrder>) => ({ ...order, note: 'x'.repeat(64 * 1024) }),
        'note: fields beyond the contract take 65547 bytes, more than 65536',
      ],
    ])('when an unknown field %s, the import answers 400 naming it and records nothing', async (_case, withExtra, message) => {
      const before = await api.runtime.eventStore.headPosition();

      const response = await api.post(importPath, withExtra(anOrder()));

      expect([response.status, response.body]).toEqual([400, { success: false, error: 'invalid_request', message }]);
      expect(await api.runtime.eventStore.headPosition()).toBe(before);
    });
  });
});
