import type { Document, Filter, ReadStore } from '../read-store/read-store.ts';
import { productsCollection, type ProductDocument, type ProductField } from './product-document.ts';

/** Reads of the `products` read model. */

export type ProductSearch = {
  /** A scanned code: matches the EAN14 or the SKU. Absent: every product. */
  skuOrEan?: string;
  /** Default: by SKU. */
  sort?: Partial<Record<ProductField, 1 | -1>>;
  skip?: number;
  limit?: number;
  /** The fields to return (the SKU always is); absent: all of them. */
  projection?: readonly ProductField[];
};

export const findProduct = (store: ReadStore, sku: string): Promise<ProductDocument | null> =>
  store.collection<ProductDocument>(productsCollection).findOne({ _id: sku });

export const searchProducts = (store: ReadStore, search: ProductSearch): Promise<Partial<ProductDocument>[]> => {
  const filter: Filter<ProductDocument> = search.skuOrEan === undefined ? {} : { $or: [{ ean14: search.skuOrEan }, { sku: search.skuOrEan }] };
  const projection: Document | undefined = search.projection && Object.fromEntries([...search.projection, 'sku'].map((field) => [field, 1]));
  return store
    .collection<ProductDocument>(productsCollection)
    .find(filter, {
      // The SKU last keeps pages stable when the requested sort has ties.
      sort: { ...search.sort, _id: 1 },
      ...(projection !== undefined && { projection }),
      ...(search.skip !== undefined && { skip: search.skip }),
      ...(search.limit !== undefined && { limit: search.limit }),
    })
    .toArray();
};
