import { productsCollection, type ProductDocument } from '../../projections/catalog/product-document.ts';
import type { ReadStore } from '../../projections/read-store/read-store.ts';

/**
 * The catalog products of these SKUs in one read (an order lists many), by SKU; a SKU no longer
 * catalogued is absent from the map. Belongs with the catalog's queries, beside `findProduct`.
 */
export const findProductsBySku = async (store: ReadStore, skus: readonly string[]): Promise<Map<string, ProductDocument>> => {
  const unique = [...new Set(skus)];
  if (unique.length === 0) return new Map();
  const products = await store
    .collection<ProductDocument>(productsCollection)
    .find({ _id: { $in: unique } })
    .toArray();
  return new Map(products.map((product) => [product._id, product]));
};
