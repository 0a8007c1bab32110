import { z } from 'zod';
import { isProductColumn, isSortableColumn, productColumns, sortableColumns } from './product-columns.ts';

/** The package search's body; the order import's is the contract's own schema (src/contracts/order-import.ts). */

export const productSearchPageSize = { default: 50, max: 100 } as const;

const quoted = (names: readonly string[]): string => names.map((name) => `"${name}"`).join(', ');

const columns = z
  .array(z.string().meta({ enum: productColumns }))
  .min(1)
  .superRefine((names, context) => {
    const unknown = names.filter((name) => !isProductColumn(name));
    if (unknown.length > 0) {
      context.addIssue({ code: 'custom', message: `unknown column(s) ${quoted(unknown)}; the columns are ${productColumns.join(', ')}` });
    }
  })
  .transform((names) => [...new Set(names.filter(isProductColumn))]);

const direction = z
  .string()
  .toLowerCase()
  .pipe(z.enum(['asc', 'desc']));

/** `{"price": "desc", "name": "asc"}`: the keys in their written order, the first one first. */
const order = z
  .record(z.string(), direction)
  .meta({ propertyNames: { enum: sortableColumns }, additionalProperties: { type: 'string', pattern: '^([aA][sS][cC]|[dD][eE][sS][cC])$' } })
  .superRefine((keys, context) => {
    const unknown = Object.keys(keys).filter((name) => !isSortableColumn(name));
    if (unknown.length > 0) {
      context.addIssue({ code: 'custom', message: `unknown sort key(s) ${quoted(unknown)}; the sort keys are ${sortableColumns.join(', ')}` });
    }
  })
  .transform((keys) => Object.entries(keys).flatMap(([name, sort]) => (isSortableColumn(name) ? [{ column: name, direction: sort }] : [])));

/** POST /api/search-ean14-product-colis. */
export const productSearchBody = z.strictObject({
  /** What the scanner read: a product's EAN14 or its SKU, exactly. Absent: every product. */
  sku: z.string().trim().min(1).max(64).meta({ pattern: '\\S' }).optional(),
  columns: columns.optional(),
  order: order.optional(),
  /** Paging is asked for by either of these (the other then takes its default); without them, every match. */
  page: z.number().int().min(1).max(1_000_000).optional(),
  page_size: z.number().int().min(1).max(productSearchPageSize.max).optional(),
});
export type ProductSearchBody = z.infer<typeof productSearchBody>;
