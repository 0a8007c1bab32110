import { productsCollection, type ProductDocument } from '../../../projections/catalog/product-document.ts';
import type { Filter, ReadStore } from '../../../projections/read-store/read-store.ts';

/**
 * How many products the package search matches: the total beside its pages. The same filter as
 * `searchProducts`, whose neighbour it should become in the catalog's queries.
 */
export const countProducts = (store: ReadStore, skuOrEan: string | undefined): Promise<number> => {
  const filter: Filter<ProductDocument> = skuOrEan === undefined ? {} : { $or: [{ ean14: skuOrEan }, { sku: skuOrEan }] };
  return store.collection<ProductDocument>(productsCollection).countDocuments(filter);
};
