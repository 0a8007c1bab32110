import type { ProductDocument, ProductField } from '../../../projections/catalog/product-document.ts';

/**
 * The product fields the package search answers, named as in the catalog import contract, each with
 * the read-model field it reads. Listed one by one so that an internal field of the document
 * (`_id`, `_position`) can never be asked for, returned or sorted on.
 */
export const columnFields = {
  sku: 'sku',
  ean14: 'ean14',
  name: 'name',
  description: 'description',
  price: 'price',
  wholesale_price: 'wholesale_price',
  availability: 'availability',
  stock_qty: 'stock_qty',
  images: 'images',
  supplier: 'supplier',
  carrier: 'carrier',
  weight_kg: 'weight_kg',
  package_count: 'package_count',
  updated_at: 'updatedAt',
} as const satisfies Record<string, ProductField>;

export type ProductColumn = keyof typeof columnFields;

export const productColumns = Object.keys(columnFields) as ProductColumn[];

/** Every column but the list of images, which has no order. */
export const sortableColumns: readonly ProductColumn[] = productColumns.filter((column) => column !== 'images');

export const isProductColumn = (name: string): name is ProductColumn => Object.hasOwn(columnFields, name);

export const isSortableColumn = (name: string): name is ProductColumn => isProductColumn(name) && name !== 'images';

/** The product as answered: exactly the requested columns, in the requested order; a field never set is null. */
export const presentProduct = (product: Partial<ProductDocument>, columns: readonly ProductColumn[]): Record<string, unknown> =>
  Object.fromEntries(columns.map((column) => [column, product[columnFields[column]] ?? null]));
