import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogProducts } from '../../../../src/events/catalog/catalog-handlers.ts';
import type { CatalogImportItem } from '../../../../src/events/catalog/catalog-import.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { jsonUtf8, searchPath, startOrdersApi, type OrdersApi } from './orders-api.ts';

const catalog: CatalogImportItem[] = [
  {
    sku: 'CAN-OSLO-3P-GRY',
    ean14: '03760123450017',
    name: 'Canapé 3 places Oslo gris',
    description: 'Canapé fixe 3 places, tissu chiné gris.',
    price: 649,
    wholesale_price: 389.4,
    availability: 'In Stock',
    stock_qty: 42,
    images: ['https://cdn.example.com/p/can-oslo-3p-gry-1.jpg'],
    supplier: 'supplier-a',
    carrier: 'Geodis',
    weight_kg: 58.5,
    package_count: 2,
  },
  { sku: 'TAB-NORD-180', ean14: '03760123450024', name: 'Table à manger Nord 180 cm', price: 499, availability: 'Backorder' },
  { sku: 'LAMP-ARC-BLK', ean14: '03760123450031', name: 'Lampadaire arc noir', price: 129.9, availability: 'In Stock' },
  { sku: 'BUF-ARTY-160', ean14: '03760123450048', name: 'Buffet Arty 160', price: 590, availability: 'In Stock' },
  // A SKU that is itself 14 digits: a scan matches it as a SKU.
  { sku: '03760123459999', name: 'Coussin lin', price: 19.9, availability: 'Out of Stock' },
];

const skus = (body: { sku: string }[]): string[] => body.map((product) => product.sku);

describe('POST /api/search-ean14-product-colis', () => {
  let api: OrdersApi;
  beforeAll(async () => {
    api = await startOrdersApi();
    await catalogProducts(api.runtime.write, catalog, systemContext());
  });
  afterAll(async () => api.close());

  const search = (body?: unknown) => api.post(searchPath, body);

  it('when the scanned code is an EAN14, it answers an array of that product with every public column and nothing internal', async () => {
    const response = await search({ sku: '03760123450017' });

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(jsonUtf8);
    expect(response.body).toEqual([
      {
        sku: 'CAN-OSLO-3P-GRY',
        ean14: '03760123450017',
        name: 'Canapé 3 places Oslo gris',
        description: 'Canapé fixe 3 places, tissu chiné gris.',
        price: 649,
        wholesale_price: 389.4,
        availability: 'In Stock',
        stock_qty: 42,
        images: ['https://cdn.example.com/p/can-oslo-3p-gry-1.jpg'],
        supplier: 'supplier-a',
        carrier: 'Geodis',
        weight_kg: 58.5,
        package_count: 2,
        updated_at: '2026-10-03T08:00:00.000Z',
      },
    ]);
    expect(response.headers['x-total-count']).toBe('1');
  });

  it('when the scanned code is a SKU, it answers that product; fields never set are null', async () => {
    const response = await search({ sku: 'TAB-NORD-180', columns: ['sku', 'ean14', 'stock_qty', 'images'] });

    expect(response.body).toEqual([{ sku: 'TAB-NORD-180', ean14: '03760123450024', stock_qty: null, images: [] }]);
  });

  it('when the scanner sends white space around the code, the code still matches', async () => {
    expect(skus((await search({ sku: ' 03760123450031\r\n' })).body)).toEqual(['LAMP-ARC-BLK']);
  });

  it("when a 14-digit code is some product's SKU, that product matches by its SKU", async () => {
    expect(skus((await search({ sku: '03760123459999' })).body)).toEqual(['03760123459999']);
  });

  it('when the code matches nothing, or only part of a code, it answers 200 and an empty array', async () => {
    for (const sku of ['00000000000000', '0376012345001', 'CAN-OSLO']) {
      const response = await search({ sku });
      expect([response.status, response.body, response.headers['x-total-count']]).toEqual([200, [], '0']);
    }
  });

  it('when columns are given, each product has exactly those, in that order', async () => {
    const response = await search({ sku: 'CAN-OSLO-3P-GRY', columns: ['price', 'name', 'price'] });

    expect(response.text).toBe(JSON.stringify([{ price: 649, name: 'Canapé 3 places Oslo gris' }]));
  });

  it('when no code is given, it answers every product by SKU, with the total in a header and no page', async () => {
    const response = await search({ columns: ['sku'] });

    expect(skus(response.body)).toEqual(['03760123459999', 'BUF-ARTY-160', 'CAN-OSLO-3P-GRY', 'LAMP-ARC-BLK', 'TAB-NORD-180']);
    expect([response.headers['x-total-count'], response.headers['x-page'], response.headers['x-page-size']]).toEqual(['5', undefined, undefined]);
  });

  it('when there is no body at all, it answers every product', async () => {
    const response = await api.post(searchPath);

    expect([response.status, response.body.length]).toEqual([200, 5]);
  });

  it('when an order is given, it sorts by it: descending, ascending, and by several keys in their written order', async () => {
    const byPrice = (direction: string) => search({ columns: ['sku', 'price'], order: { price: direction } });

    expect(skus((await byPrice('desc')).body)).toEqual(['CAN-OSLO-3P-GRY', 'BUF-ARTY-160', 'TAB-NORD-180', 'LAMP-ARC-BLK', '03760123459999']);
    expect(skus((await byPrice('asc')).body)).toEqual(['03760123459999', 'LAMP-ARC-BLK', 'TAB-NORD-180', 'BUF-ARTY-160', 'CAN-OSLO-3P-GRY']);
    expect(skus((await byPrice('DESC')).body)).toEqual(skus((await byPrice('desc')).body));
    const twoKeys = await search({ columns: ['sku'], order: { availability: 'asc', price: 'desc' } });
    expect(skus(twoKeys.body)).toEqual(['TAB-NORD-180', 'CAN-OSLO-3P-GRY', 'BUF-ARTY-160', 'LAMP-ARC-BLK', '03760123459999']);
  });

  it('when pages are asked, each holds page_size products of the same order, the total counting them all', async () => {
    const page = (number: number) => search({ columns: ['sku'], order: { price: 'desc' }, page: number, page_size: 2 });

    const pages = await Promise.all([page(1), page(2), page(3), page(4)]);

    expect(pages.map((response) => skus(response.body))).toEqual([
      ['CAN-OSLO-3P-GRY', 'BUF-ARTY-160'],
      ['TAB-NORD-180', 'LAMP-ARC-BLK'],
      ['03760123459999'],
      [],
    ]);
    expect(pages.map((response) => [response.headers['x-total-count'], response.headers['x-page'], response.headers['x-page-size']])).toEqual([
      ['5', '1', '2'],
      ['5', '2', '2'],
      ['5', '3', '2'],
      ['5', '4', '2'],
    ]);
  });

  const refused: [string, unknown, string][] = [
    [
      'a column is unknown',
      { columns: ['sku', 'colour', '_id'] },
      'columns: unknown column(s) "colour", "_id"; the columns are sku, ean14, name, description, price, wholesale_price, availability, stock_qty, images, supplier, carrier, weight_kg, package_count, updated_at',
    ],
    [
      'a sort key is unknown',
      { order: { _position: 'asc', price: 'desc' } },
      'order: unknown sort key(s) "_position"; the sort keys are sku, ean14, name, description, price, wholesale_price, availability, stock_qty, supplier, carrier, weight_kg, package_count, updated_at',
    ],
    [
      'the sort key is the list of images',
      { order: { images: 'asc' } },
      'order: unknown sort key(s) "images"; the sort keys are sku, ean14, name, description, price, wholesale_price, availability, stock_qty, supplier, carrier, weight_kg, package_count, updated_at',
    ],
    ['a direction is neither asc nor desc', { order: { price: 'up' } }, 'order.price: Invalid option: expected one of "asc"|"desc"'],
    ['no column is asked', { columns: [] }, 'columns: Too small: expected array to have >=1 items'],
    ['the code is a number', { sku: 3760123450017 }, 'sku: Invalid input: expected string, received number'],
    ['the page size is over 100', { page_size: 101 }, 'page_size: Too big: expected number to be <=100'],
    ['the page is 0', { page: 0 }, 'page: Too small: expected number to be >=1'],
    ['the body has a field the search does not know', { sku: 'TAB-NORD-180', limit: 5 }, 'limit: unknown field'],
  ];

  it.each(refused)('when %s, it answers 400 naming it', async (_case, body, message) => {
    const response = await search(body);

    expect([response.status, response.body]).toEqual([400, { success: false, error: 'invalid_request', message }]);
  });
});

describe('POST /api/search-ean14-product-colis on a catalog larger than a page', () => {
  let api: OrdersApi;
  const many: CatalogImportItem[] = Array.from({ length: 120 }, (_, i) => ({
    sku: `SKU-${String(i).padStart(3, '0')}`,
    name: `Produit ${i}`,
    price: 10 + i,
    availability: 'In Stock',
  }));
  beforeAll(async () => {
    api = await startOrdersApi();
    await catalogProducts(api.runtime.write, many, systemContext());
  });
  afterAll(async () => api.close());

  it('"JSON array of matching products": without page or page_size, it answers all 120 matches, not a first page of them', async () => {
    const response = await api.post(searchPath, { columns: ['sku'] });

    expect(response.status).toBe(200);
    expect(skus(response.body)).toEqual(many.map((item) => item.sku));
    expect(response.headers['x-total-count']).toBe('120');
  });

  it('when only page or only page_size is given, paging applies with the other one at its default (page 1, 50 products)', async () => {
    const firstPage = await api.post(searchPath, { columns: ['sku'], page: 1 });
    const thirty = await api.post(searchPath, { columns: ['sku'], page_size: 30 });

    expect([firstPage.body.length, firstPage.headers['x-page'], firstPage.headers['x-page-size']]).toEqual([50, '1', '50']);
    expect(skus(thirty.body)).toEqual(many.slice(0, 30).map((item) => item.sku));
    expect([thirty.headers['x-total-count'], thirty.headers['x-page'], thirty.headers['x-page-size']]).toEqual(['120', '1', '30']);
  });
});
