import { describe, expect, it } from 'vitest';
import type { ProductFields } from '../../../src/events/catalog/events.ts';
import { productsProjection } from '../../../src/projections/catalog/products-projection.ts';
import { findProduct, searchProducts } from '../../../src/projections/catalog/queries.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { eventLog } from './event-log.ts';
import { project } from './project.ts';
import { buildScenario } from './scenario.ts';

const projections = [productsProjection];

const product = (sku: string, ean14: string | null, price: number): ProductFields => ({
  sku,
  ean14,
  name: `Produit ${sku}`,
  description: null,
  price,
  wholesale_price: null,
  availability: 'In Stock',
  stock_qty: null,
  images: [],
  supplier: null,
  carrier: null,
  weight_kg: null,
  package_count: 1,
  vat_rate: 20,
  operation_category: 'goods',
});

describe('products read model', () => {
  it('when a product was catalogued then updated, the document holds its latest fields', async () => {
    const store = await openTestReadStore();
    await project(store, projections, buildScenario().events);

    expect(await findProduct(store, 'SOFA-3P')).toEqual({
      _id: 'SOFA-3P',
      _position: expect.any(Number),
      sku: 'SOFA-3P',
      ean14: '03760000000017',
      name: 'Canapé 3 places',
      description: null,
      price: 849,
      wholesale_price: 400,
      availability: 'In Stock',
      stock_qty: 2,
      images: ['https://example.com/sofa.jpg'],
      supplier: 'supplier-a',
      carrier: 'geodis',
      weight_kg: 80,
      package_count: 2,
      vat_rate: 20,
      operation_category: 'goods',
      updatedAt: '2025-02-01T00:00:00Z',
    });
    expect(await findProduct(store, 'NOPE')).toBeNull();
  });

  describe('searching products', () => {
    const given = async () => {
      const store = await openTestReadStore();
      const log = eventLog();
      for (const [sku, ean, price] of [
        ['B', '00000000000002', 30],
        ['A', '00000000000001', 20],
        ['00000000000002', null, 10],
      ] as const) {
        log.record(`product-${sku}`, { type: 'ProductCatalogued', data: { product: product(sku, ean, price), cataloguedAt: '2025-01-01T00:00:00Z' } });
      }
      await project(store, projections, log.events);
      return store;
    };

    it('when a scanned code is given, it matches the EAN14 or the SKU', async () => {
      const found = await searchProducts(await given(), { skuOrEan: '00000000000002' });
      expect(found.map((p) => p.sku)).toEqual(['00000000000002', 'B']);
    });

    it('when no code is given, every product comes, by SKU unless sorted otherwise', async () => {
      const store = await given();
      expect((await searchProducts(store, {})).map((p) => p.sku)).toEqual(['00000000000002', 'A', 'B']);
      expect((await searchProducts(store, { sort: { price: -1 } })).map((p) => p.sku)).toEqual(['B', 'A', '00000000000002']);
      expect((await searchProducts(store, { sort: { price: 1 }, skip: 1, limit: 1 })).map((p) => p.sku)).toEqual(['A']);
    });

    it('when columns are asked, only they and the SKU are returned', async () => {
      const found = await searchProducts(await given(), { skuOrEan: 'A', projection: ['price', 'ean14'] });
      expect(found).toEqual([{ _id: 'A', sku: 'A', price: 20, ean14: '00000000000001' }]);
    });
  });
});
