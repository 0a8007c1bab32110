import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import { applyOnce, type Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import { productsCollection, type ProductDocument } from './product-document.ts';

const eventTypes = ['ProductCatalogued', 'ProductUpdated'] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

/** The `products` read model: product lookups and the package scanning search by EAN14. */
export const productsProjection: Projection = {
  name: 'products',
  // 2: rebuilt from events read with bounded amounts (an old log's 1e308 prices and totals).
  // 3: every product has its VAT rate (20 % for those catalogued before the rate existed).
  // 4: every product has its category of operation (goods for those catalogued before it existed).
  version: 4,
  eventTypes,
  collections: [productsCollection],

  async setup(store: ReadStore) {
    await store.collection<ProductDocument>(productsCollection).createIndex({ ean14: 1 });
  },

  async apply(stored: StoredEvent, store: ReadStore) {
    if (!handled.has(stored.type)) return;
    const event = stored as StoredEvent<Handled>;
    const products = store.collection<ProductDocument>(productsCollection);
    switch (event.type) {
      case 'ProductCatalogued': {
        const { product, cataloguedAt } = event.data;
        await applyOnce(products, product.sku, event.position, { $set: { ...product, updatedAt: cataloguedAt } }, { upsert: true });
        return;
      }
      case 'ProductUpdated': {
        const { sku, changes, updatedAt } = event.data;
        await applyOnce(products, sku, event.position, { $set: { ...changes, updatedAt } });
        return;
      }
      default:
        return assertNever(event);
    }
  },
};
