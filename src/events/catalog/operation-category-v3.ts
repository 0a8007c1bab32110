import { isRecord } from '../schema/amounts-on-read.ts';
import type { Upcaster } from '../schema/define-event.ts';

/**
 * Version 3 of ProductCatalogued, read as version 4: the product gets its category of operation,
 * goods, which every product of a furniture catalogue without the field was. A shape change, not a
 * repair: nothing recorded is altered.
 */
export const productCataloguedV3: Upcaster = (data) =>
  isRecord(data) && isRecord(data.product) ? { ...data, product: { operation_category: 'goods', ...data.product } } : data;
