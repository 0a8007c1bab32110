import { z } from 'zod';
import { defineEvent, type EventsOf } from '../schema/define-event.ts';
import { instant, money, supplierName } from '../schema/common-schemas.ts';
import { productCataloguedV1, productUpdatedV1 } from './amounts-v1.ts';
import { productCataloguedV3 } from './operation-category-v3.ts';
import { productCataloguedV2 } from './vat-rate-v2.ts';

/**
 * The French VAT rates a product may be sold at, in percent as the catalog file gives them: standard
 * 20, intermediate 10, reduced 5.5, special 2.1 (CGI art. 278 to 281 nonies).
 */
export const frenchVatRates = [20, 10, 5.5, 2.1] as const;
export type FrenchVatRate = (typeof frenchVatRates)[number];
export const standardVatRatePercent: FrenchVatRate = 20;
export const vatRatePercent = z.union(
  frenchVatRates.map((rate) => z.literal(rate)),
  'must be one of the French VAT rates 20, 10, 5.5, 2.1 (percent)',
);

/**
 * What selling a product is, for the category of operation an invoice states (CGI annexe II art. 242
 * nonies A, since the 2026 reform): a delivery of goods (furniture) or a service (assembly, fitting).
 */
export const operationCategory = z.enum(['goods', 'services']);
export type OperationCategory = z.infer<typeof operationCategory>;
export const defaultOperationCategory: OperationCategory = 'goods';

/** Events of a catalog product's stream, `product-<sku>`. Field names follow the catalog import contract. */

export const productFields = z.object({
  sku: z.string().min(1).max(64),
  ean14: z
    .string()
    .regex(/^\d{14}$/)
    .nullable(),
  name: z.string().min(1).max(255),
  description: z.string().max(10000).nullable(),
  price: money,
  wholesale_price: money.nullable(),
  availability: z.string().max(64).nullable(),
  stock_qty: z.number().int().nonnegative().nullable(),
  images: z.array(z.string().url()).max(20),
  supplier: supplierName.nullable(),
  carrier: z.string().max(64).nullable(),
  weight_kg: z.number().nonnegative().nullable(),
  package_count: z.number().int().min(1).nullable(),
  /** The VAT rate it is sold at, in percent; 20 when the catalog file gives none. */
  vat_rate: vatRatePercent,
  /** Goods or services; goods when the catalog file does not say. */
  operation_category: operationCategory,
});
export type ProductFields = z.infer<typeof productFields>;

export const ProductCatalogued = defineEvent(
  'ProductCatalogued',
  z.object({ product: productFields, cataloguedAt: instant }),
  // 2: prices bounded (schema/bounded-numbers.ts); a version 1 event is read within the bounds.
  // 3: the VAT rate; a product catalogued before it is read at the standard rate, as it was invoiced.
  // 4: the category of operation; a product catalogued before it is read as goods.
  { version: 4, upcasters: { 1: productCataloguedV1, 2: productCataloguedV2, 3: productCataloguedV3 } },
);

export const ProductUpdated = defineEvent(
  'ProductUpdated',
  z.object({
    sku: z.string().min(1).max(64),
    /** Only the fields that changed, with their new values. */
    changes: productFields.omit({ sku: true }).partial(),
    updatedAt: instant,
  }),
  { version: 2, upcasters: { 1: productUpdatedV1 } },
);

export const productEventDefinitions = [ProductCatalogued, ProductUpdated] as const;
export type ProductEvent = EventsOf<typeof productEventDefinitions>;

export const productStreamName = (sku: string): string => `product-${sku}`;
