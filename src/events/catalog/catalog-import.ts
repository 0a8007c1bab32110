import { z } from 'zod';
import { amount, packageCount, stockQuantity, weightKg } from '../schema/bounded-numbers.ts';
import { defaultOperationCategory, operationCategory, standardVatRatePercent, vatRatePercent, type ProductFields } from './events.ts';

/**
 * One product of a catalog import file, as `catalog import` parses it: with `catalogImportFile`, the
 * catalog-import contract, whose JSON Schema (contracts/json-schemas.ts) is generated from it. Strict: a
 * key the contract does not know is refused rather than silently dropped, so a misspelt column cannot
 * go unnoticed. Where the legacy contract was silent on a length, the bound of the product events
 * applies, so that an accepted file never fails later when its events are recorded.
 */
export const catalogImportItem = z.strictObject({
  sku: z.string().min(1).max(64),
  ean14: z
    .string()
    .regex(/^[0-9]{14}$/, 'expected a GTIN-14: exactly 14 digits')
    .describe('GTIN-14 of the shipping package, used by package scanning.')
    .optional(),
  name: z.string().min(1).max(255),
  description: z.string().max(10000).optional(),
  price: amount.describe('Retail price, tax included.'),
  wholesale_price: amount.describe('Supplier price, the default of the order lines that give none.').optional(),
  availability: z
    .string()
    .max(64)
    .meta({ examples: ['In Stock', 'Out of Stock', 'Backorder'] })
    .optional(),
  stock_qty: stockQuantity.optional(),
  images: z.array(z.string().url()).max(20).optional(),
  supplier: z
    .enum(['supplier-a', 'supplier-b'])
    .nullable()
    .describe("Drop-ship supplier of the product, or null when it ships from the operator's own stock.")
    .optional(),
  carrier: z.string().max(64).optional(),
  weight_kg: weightKg.optional(),
  package_count: packageCount.describe('Number of parcels one unit ships in.').optional(),
  /** This service's extension of the legacy contract: the product's VAT rate in percent, 20 when absent. */
  vat_rate: vatRatePercent
    .meta({ description: "The product's VAT rate in percent, the rate its invoice lines get.", default: standardVatRatePercent })
    .optional(),
  /** This service's extension too: the category of operation the invoices state. */
  operation_category: operationCategory
    .meta({
      description:
        'What selling the product is, for the category of operation its invoices state: `goods` (a delivery of goods) or `services` (assembly, fitting, any service sold as a product).',
      default: defaultOperationCategory,
    })
    .optional(),
});
export type CatalogImportItem = z.infer<typeof catalogImportItem>;

/**
 * The whole file. A SKU listed twice is refused, naming both positions: which of two differing rows
 * is meant cannot be guessed, and refusing the file records nothing, so it can be fixed and re-imported.
 */
export const catalogImportFile = z
  .array(catalogImportItem)
  .superRefine((items, context) => {
    const firstIndex = new Map<string, number>();
    items.forEach((item, index) => {
      const first = firstIndex.get(item.sku);
      if (first === undefined) firstIndex.set(item.sku, index);
      else context.addIssue({ code: 'custom', path: [index, 'sku'], message: `duplicate sku ${item.sku} (first at index ${first})` });
    });
  })
  .meta({
    title: 'Catalog import file',
    description:
      'What `catalog import` reads: a JSON array of products. A SKU not seen before is catalogued; a known one is updated, only its changed fields recorded; identical data records nothing. ' +
      'A key not listed here is refused, and so is a SKU listed twice. Every amount has at most 2 decimals, a weight at most 3.',
  });
export type CatalogImportFile = z.infer<typeof catalogImportFile>;

/** The product as recorded: an absent optional field is null (images: none). */
export const toProductFields = (item: CatalogImportItem): ProductFields => ({
  sku: item.sku,
  ean14: item.ean14 ?? null,
  name: item.name,
  description: item.description ?? null,
  price: item.price,
  wholesale_price: item.wholesale_price ?? null,
  availability: item.availability ?? null,
  stock_qty: item.stock_qty ?? null,
  images: item.images ?? [],
  supplier: item.supplier ?? null,
  carrier: item.carrier ?? null,
  weight_kg: item.weight_kg ?? null,
  package_count: item.package_count ?? null,
  vat_rate: item.vat_rate ?? standardVatRatePercent,
  operation_category: item.operation_category ?? defaultOperationCategory,
});
