import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { catalogProducts } from '../../../../src/events/catalog/catalog-handlers.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { labelFileFor } from '../../../../src/files/label-path.ts';
import { findSaleByIncrementId } from '../../../../src/projections/sales/queries.ts';
import { trackingEvents } from '../../../labels/label-fixtures.ts';
import { pdfText } from '../../../labels/pdf-tools.ts';
import { expectSignedLabelLink } from '../../../support/label-links.ts';
import { getFile, labelUrl } from '../../files/files-client.ts';
import { anOrder, baseUrl, bearer, importPath, jsonUtf8, startOrdersApi, type OrdersApi } from './orders-api.ts';

describe('POST /api/api-add-new-order-api-shopping: a new order', () => {
  let api: OrdersApi;
  beforeAll(async () => {
    api = await startOrdersApi();
  });
  afterAll(async () => api.close());
  // Each spec's labels are rendered before the next spec starts, so no spec waits on another's.
  afterEach(async () => api.labels.idle());

  it('when the order is new, it answers 201 with the sale ID, the increment_id, a sale_product_id per line and the supplier lines', async () => {
    const order = anOrder();

    const response = await api.post(importPath, order);

    expect(response.status).toBe(201);
    expect(response.headers['content-type']).toBe(jsonUtf8);
    const { sale_id, sale_product_ids } = response.body as { sale_id: number; sale_product_ids: number[] };
    const [sofa, table, lamp] = sale_product_ids;
    expect(response.body).toEqual({
      success: true,
      created: true,
      message: 'Order imported',
      sale_id,
      increment_id: order.increment_id,
      sale_product_ids: [sofa, table, lamp],
      supplier_lines: [
        { sale_product_id: sofa, service_order_id: `${order.increment_id}_${sofa}`, supplier: 'supplier-a' },
        { sale_product_id: table, service_order_id: `${order.increment_id}_${table}`, supplier: 'supplier-b' },
      ],
    });
    expect(Number.isInteger(sale_id) && sale_id > 0).toBe(true);
    expect(new Set(sale_product_ids).size).toBe(3);
    expect(response.headers.location).toBe(`/api/sale/${sale_id}`);
  });

  it('when the import has answered, the sale is in the read model as ordered', async () => {
    const order = anOrder();

    const { body } = await api.post(importPath, order);

    const sale = await findSaleByIncrementId(api.runtime.readStore, order.increment_id);
    expect(sale).toMatchObject({
      _id: body.sale_id,
      status: 'processing',
      orderedAt: order.created_at,
      customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin' },
      shippingAddress: { city: 'Lyon', postcode: '69003' },
      grandTotal: 1407.8,
    });
    expect(sale?.products.map((product) => [product.saleProductId, product.sku, product.qty, product.supplier])).toEqual([
      [body.sale_product_ids[0], 'CAN-OSLO-3P-GRY', 1, 'supplier-a'],
      [body.sale_product_ids[1], 'TAB-NORD-180', 1, 'supplier-b'],
      [body.sale_product_ids[2], 'LAMP-ARC-BLK', 2, null],
    ]);
  });

  it("when the import has answered, each supplier lists its own line in get-sales, and the own-stock line is nobody's", async () => {
    const order = anOrder();

    const { body } = await api.post(importPath, order);

    const [sofaLine, tableLine, lampLine] = (body.sale_product_ids as number[]).map((id) => `${order.increment_id}_${id}`);
    const listed = async (supplier: 'supplier-a' | 'supplier-b') => {
      const token = await api.tokenFor(supplier);
      const response = await api.request.get(`/api/${supplier}/get-sales?order_number=${order.increment_id}`).set(bearer(token));
      return (response.body as { service_order_id: string; link_to_label: string }[]).map((line) => {
        expectSignedLabelLink(api.runtime, line.link_to_label, { baseUrl, supplier, serviceOrderId: line.service_order_id });
        return line.service_order_id;
      });
    };
    expect(await listed('supplier-a')).toEqual([sofaLine]);
    expect(await listed('supplier-b')).toEqual([tableLine]);
    expect([...(await listed('supplier-a')), ...(await listed('supplier-b'))]).not.toContain(lampLine);
  });

  it('when the import has answered, each supplier line has its tracking number, and its label is rendered: on disk, and the file its supplier fetches', async () => {
    const order = anOrder();
    const { body } = await api.post(importPath, order);
    const [sofaLine, tableLine] = (body.sale_product_ids as number[]).map((id) => `${order.increment_id}_${id}`);
    const numbers = (await trackingEvents(api.runtime, order.increment_id)).map((event) => [event.supplier, event.trackingNumber]);
    expect(numbers).toEqual([
      ['supplier-a', expect.stringMatching(/^MC\d{13}$/)],
      ['supplier-b', expect.stringMatching(/^MC\d{13}$/)],
    ]);

    await api.labels.idle();

    const sofaLabel = await readFile(labelFileFor(api.dataDir, 'supplier-a', sofaLine!));
    expect(await pdfText(sofaLabel)).toContain(numbers[0]![1]);
    expect(await pdfText(await readFile(labelFileFor(api.dataDir, 'supplier-b', tableLine!)))).toContain(numbers[1]![1]);
    const fetched = await getFile(api, labelUrl('supplier-a', sofaLine!), await api.tokenFor('supplier-a'));
    expect(fetched.status).toBe(200);
    expect(Buffer.compare(fetched.body as Buffer, sofaLabel)).toBe(0);
  });

  it("when a line's SKU is unknown to the catalog, the order is imported with the line's own data: own stock, unless the line names its supplier", async () => {
    await catalogProducts(
      api.runtime.write,
      [{ sku: 'BUF-ARTY-160', name: 'Buffet Arty 160', price: 590, wholesale_price: 310.5, supplier: 'supplier-a', carrier: 'Kuehne' }],
      systemContext(),
    );
    const order = anOrder({
      items: [
        { sku: 'BUF-ARTY-160', name: 'Buffet Arty 160', qty_ordered: 1, price: 590 },
        { sku: 'NEVER-CATALOGUED-1', name: 'Pouf velours', qty_ordered: 1, price: 89 },
        { sku: 'NEVER-CATALOGUED-2', name: 'Miroir rond', qty_ordered: 1, price: 120, supplier: 'supplier-b', carrier: 'DPD' },
      ],
      grand_total: 799,
    });

    const response = await api.post(importPath, order);

    expect(response.status).toBe(201);
    const [buffet, pouf, mirror] = response.body.sale_product_ids as number[];
    expect(response.body.supplier_lines).toEqual([
      { sale_product_id: buffet, service_order_id: `${order.increment_id}_${buffet}`, supplier: 'supplier-a' },
      { sale_product_id: mirror, service_order_id: `${order.increment_id}_${mirror}`, supplier: 'supplier-b' },
    ]);
    const sale = await findSaleByIncrementId(api.runtime.readStore, order.increment_id);
    expect(sale?.products.map((product) => [product.saleProductId, product.supplier, product.carrier, product.wholesalePrice])).toEqual([
      [buffet, 'supplier-a', 'Kuehne', 310.5],
      [pouf, null, null, null],
      [mirror, 'supplier-b', 'DPD', null],
    ]);
  });
});
