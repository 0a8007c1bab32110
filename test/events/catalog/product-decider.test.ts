import { randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';
import type { ProductEvent, ProductFields } from '../../../src/events/catalog/events.ts';
import { productDecider, type CatalogProduct } from '../../../src/events/catalog/product-decider.ts';
import { deciderSpec } from '../../support/decider-spec.ts';

const spec = deciderSpec(productDecider);
const cataloguedAt = '2025-03-01T08:00:00.000Z';
const at = '2025-03-14T09:30:00.000Z';

const productOf = (sku: string): ProductFields => ({
  sku,
  ean14: '03760123450017',
  name: 'Canapé 3 places Oslo gris',
  description: null,
  price: 649,
  wholesale_price: 389.4,
  availability: 'In Stock',
  stock_qty: 42,
  images: ['https://cdn.example.com/p/1.jpg', 'https://cdn.example.com/p/2.jpg'],
  supplier: 'supplier-a',
  carrier: 'Geodis',
  weight_kg: 58,
  package_count: 2,
  vat_rate: 20,
  operation_category: 'goods',
});

const catalogue = (product: ProductFields): CatalogProduct => ({ type: 'CatalogProduct', product, at });
const catalogued = (product: ProductFields): ProductEvent => ({ type: 'ProductCatalogued', data: { product, cataloguedAt } });
const freshSku = () => `SKU-${randomUUID().slice(0, 8)}`;

describe('cataloguing a product', () => {
  it('when the SKU is new, the product is catalogued', () => {
    const product = productOf(freshSku());
    spec
      .given([])
      .when(catalogue(product))
      .then([{ type: 'ProductCatalogued', data: { product, cataloguedAt: at } }]);
  });

  it('when the product is identical, nothing happens', () => {
    const product = productOf(freshSku());
    spec
      .given([catalogued(product)])
      .when(catalogue({ ...product, images: [...product.images] }))
      .thenNothingHappens();
  });

  it('when some fields differ, only the changed fields are recorded', () => {
    const product = productOf(freshSku());
    spec
      .given([catalogued(product)])
      .when(catalogue({ ...product, price: 599, stock_qty: 0, availability: 'Out of Stock' }))
      .then([{ type: 'ProductUpdated', data: { sku: product.sku, changes: { price: 599, stock_qty: 0, availability: 'Out of Stock' }, updatedAt: at } }]);
  });

  it('when a field becomes null, the change to null is recorded', () => {
    const product = productOf(freshSku());
    spec
      .given([catalogued(product)])
      .when(catalogue({ ...product, ean14: null }))
      .then([{ type: 'ProductUpdated', data: { sku: product.sku, changes: { ean14: null }, updatedAt: at } }]);
  });

  it('when the images are reordered, the new order is recorded', () => {
    const product = productOf(freshSku());
    const images = [...product.images].reverse();
    spec
      .given([catalogued(product)])
      .when(catalogue({ ...product, images }))
      .then([{ type: 'ProductUpdated', data: { sku: product.sku, changes: { images }, updatedAt: at } }]);
  });

  it('when an earlier update already brought the product to the imported values, nothing happens', () => {
    const product = productOf(freshSku());
    const updated: ProductEvent = { type: 'ProductUpdated', data: { sku: product.sku, changes: { price: 599, images: [] }, updatedAt: cataloguedAt } };
    spec
      .given([catalogued(product), updated])
      .when(catalogue({ ...product, price: 599, images: [] }))
      .thenNothingHappens();
  });

  it('when the imported product goes back to a value an update changed, the change back is recorded', () => {
    const product = productOf(freshSku());
    const updated: ProductEvent = { type: 'ProductUpdated', data: { sku: product.sku, changes: { price: 599 }, updatedAt: cataloguedAt } };
    spec
      .given([catalogued(product), updated])
      .when(catalogue(product))
      .then([{ type: 'ProductUpdated', data: { sku: product.sku, changes: { price: 649 }, updatedAt: at } }]);
  });
});
