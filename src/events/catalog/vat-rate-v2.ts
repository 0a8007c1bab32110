import { isRecord } from '../schema/amounts-on-read.ts';
import type { Upcaster } from '../schema/define-event.ts';

/**
 * Version 2 of ProductCatalogued, read as version 3: the product gets the VAT rate it was sold at
 * then, the standard 20 %, since the catalog had no rate and every line was invoiced at it. A shape
 * change, not a repair: nothing recorded is altered.
 */
export const productCataloguedV2: Upcaster = (data) =>
  isRecord(data) && isRecord(data.product) ? { ...data, product: { vat_rate: 20, ...data.product } } : data;
