import { amountsOnRead, isRecord } from '../schema/amounts-on-read.ts';
import type { Upcaster } from '../schema/define-event.ts';

/** Version 1 of the product events, read as version 2: prices bounded (see schema/amounts-on-read.ts). */

const prices = ['price', 'wholesale_price'] as const;

export const productCataloguedV1: Upcaster = (data, repaired) =>
  isRecord(data) ? { ...data, product: amountsOnRead(data.product, prices, 'product.', repaired) } : data;

export const productUpdatedV1: Upcaster = (data, repaired) =>
  isRecord(data) ? { ...data, changes: amountsOnRead(data.changes, prices, 'changes.', repaired) } : data;
