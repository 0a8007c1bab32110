import type { ProductFields } from '../../events/catalog/events.ts';
import type { Tracked } from '../projection.ts';

/** The `products` read model: the catalog, one document per product, `_id` = sku. */

export const productsCollection = 'products';

export type ProductDocument = Tracked & ProductFields & { _id: string; updatedAt: string };

/** The fields a product search may return or sort on. */
export type ProductField = keyof ProductFields | 'updatedAt';
