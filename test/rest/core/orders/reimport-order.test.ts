import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogProducts } from '../../../../src/events/catalog/catalog-handlers.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { cancelSale } from '../../../../src/events/sales/cancel-sale.ts';
import { updateSaleAddress } from '../../../../src/events/sales/update-address.ts';
import type { OrderImportPayload } from '../../../../src/events/sales/import-sale.ts';
import { anOrder, importPath, startOrdersApi, type OrdersApi } from './orders-api.ts';

/** Own-stock lines only: these specs are about the sale, not its labels. */
const ownStockOrder = (overrides: Partial<OrderImportPayload> = {}): OrderImportPayload =>
  anOrder({
    items: [
      { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, supplier: null },
      { sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499, supplier: null },
    ],
    grand_total: 758.8,
    ...overrides,
  });

describe('POST /api/api-add-new-order-api-shopping: an order sent again', () => {
  let api: OrdersApi;
  beforeAll(async () => {
    api = await startOrdersApi();
  });
  afterAll(async () => api.close());

  const head = () => api.runtime.eventStore.headPosition();

  it('when the same order is posted again, it answers 200 with the same IDs and records nothing', async () => {
    const order = ownStockOrder();
    const first = await api.post(importPath, order);
    const before = await head();

    const again = await api.post(importPath, order);

    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, created: false, message: 'Order already imported; nothing was changed' });
    expect(again.headers.location).toBeUndefined();
    expect(await head()).toBe(before);
  });

  it('when the order is sent again after its address was updated and a line cancelled, it is still the order recorded: 200, nothing recorded', async () => {
    const order = ownStockOrder();
    const first = await api.post(importPath, order);
    await updateSaleAddress(
      api.runtime.salesDeps,
      { incrementId: order.increment_id, shippingAddress: { ...order.shipping_address, street: ['3 place Bellecour'], postcode: '69002' } },
      systemContext(),
    );
    await cancelSale(
      api.runtime.salesDeps,
      { incrementId: order.increment_id, saleProductIds: [first.body.sale_product_ids[1]], reason: 'rupture' },
      systemContext(),
    );
    const before = await head();

    const again = await api.post(importPath, order);

    expect([again.status, again.body.sale_id, again.body.sale_product_ids]).toEqual([200, first.body.sale_id, first.body.sale_product_ids]);
    expect(await head()).toBe(before);
  });

  it('when the order is sent again with its instant at another offset and without the line fields the catalog supplied, it is the same order', async () => {
    await catalogProducts(
      api.runtime.write,
      [{ sku: 'BUF-ARTY-160', name: 'Buffet Arty 160', price: 590, wholesale_price: 310.5, supplier: 'supplier-a', carrier: 'Kuehne' }],
      systemContext(),
    );
    const order = ownStockOrder({ items: [{ sku: 'BUF-ARTY-160', name: 'Buffet Arty 160', qty_ordered: 1, price: 590 }], grand_total: undefined });
    const first = await api.post(importPath, order);
    // The catalog changes after the import: the order did not.
    await catalogProducts(
      api.runtime.write,
      [{ sku: 'BUF-ARTY-160', name: 'Buffet Arty 160', price: 590, wholesale_price: 330, supplier: 'supplier-b', carrier: 'DPD' }],
      systemContext(),
    );
    await api.labels.idle();
    const before = await head();

    const again = await api.post(importPath, { ...order, created_at: '2026-10-02T07:14:00Z' });

    expect([first.status, again.status, again.body.sale_id]).toEqual([201, 200, first.body.sale_id]);
    expect(again.body.supplier_lines).toEqual(first.body.supplier_lines);
    expect(await head()).toBe(before);
  });

  it('when the same increment_id comes with other content, it answers 409 order_conflict naming every differing field, and records nothing', async () => {
    const order = ownStockOrder();
    const first = await api.post(importPath, order);
    const before = await head();
    const [lamp, table] = order.items;

    const conflicting = await api.post(importPath, {
      ...order,
      customer: { ...order.customer, email: 'someone.else@example.org' },
      items: [lamp, { ...table, qty_ordered: 2 }],
      payment: { ...order.payment, status: 'pending' },
    });

    expect(conflicting.status).toBe(409);
    expect(conflicting.body).toEqual({
      success: false,
      error: 'order_conflict',
      message: `Order ${order.increment_id} was already imported with different content (customer.email, items.1.qty_ordered, payment.status); nothing was changed`,
      sale_id: first.body.sale_id,
      increment_id: order.increment_id,
      sale_product_ids: first.body.sale_product_ids,
      differences: ['customer.email', 'items.1.qty_ordered', 'payment.status'],
    });
    expect(await head()).toBe(before);
  });

  it('when the order sent again has another number of lines, or a line given its own supplier, the conflict names it', async () => {
    const order = ownStockOrder();
    await api.post(importPath, order);
    const [lamp, table] = order.items;

    const oneLine = await api.post(importPath, { ...order, items: [lamp] });
    const dropShipped = await api.post(importPath, { ...order, items: [lamp, { ...table, supplier: 'supplier-b' }] });

    expect([oneLine.status, oneLine.body.differences]).toEqual([409, ['items']]);
    expect([dropShipped.status, dropShipped.body.differences]).toEqual([409, ['items.1.supplier']]);
  });

  it('when five imports of one new order race, one creates the sale and all five answer it', async () => {
    const order = ownStockOrder();

    const answers = await Promise.all(Array.from({ length: 5 }, () => api.post(importPath, order)));

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((answer) => JSON.stringify([answer.body.sale_id, answer.body.sale_product_ids]))).size).toBe(1);
  });
});
