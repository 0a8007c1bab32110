import { amountOnRead, amountsOnRead, isRecord } from '../schema/amounts-on-read.ts';
import { maxAmount } from '../schema/bounded-numbers.ts';
import type { Upcaster } from '../schema/define-event.ts';
import { fromCents, lineCents, sumCents, toCents } from '../schema/money.ts';

/**
 * Version 1 of the sale events carrying money, read as version 2 (amounts bounded, see
 * schema/amounts-on-read.ts). A grand total that is not an amount (1e308, or the null an overflowed
 * sum was written as) is recomputed from the lines and the shipping, as the import computes a missing
 * one, within the bounds; one with more decimals is rounded to the cent.
 */

const lineCentsOnRead = (product: unknown): number => {
  if (!isRecord(product) || typeof product.price !== 'number' || !Number.isSafeInteger(product.qty)) return 0;
  return lineCents({ price: product.price, qty: product.qty as number });
};

export const saleImportedV1: Upcaster = (data, repaired) => {
  if (!isRecord(data)) return data;
  const products = Array.isArray(data.products)
    ? data.products.map((product, index) => amountsOnRead(product, ['price', 'wholesalePrice'], `products.${index}.`, repaired))
    : data.products;
  const payment = amountsOnRead(data.payment, ['amountPaid'], 'payment.', repaired);
  const shippingAmount = amountOnRead(data.shippingAmount, 'shippingAmount', repaired);

  const recorded = data.grandTotal;
  if (typeof recorded === 'number' && recorded >= 0 && recorded <= maxAmount) {
    return { ...data, products, payment, shippingAmount, grandTotal: amountOnRead(recorded, 'grandTotal', repaired) };
  }
  const shippingCents = typeof shippingAmount === 'number' ? toCents(shippingAmount) : 0;
  const cents = sumCents(Array.isArray(products) ? products.map(lineCentsOnRead) : []) + shippingCents;
  const grandTotal = fromCents(Math.min(cents, toCents(maxAmount)));
  repaired('grandTotal', recorded, grandTotal, `was not an amount from 0 to ${maxAmount}: recomputed from the lines and the shipping`);
  return { ...data, products, payment, shippingAmount, grandTotal };
};

export const refundRequestedV1: Upcaster = (data, repaired) => amountsOnRead(data, ['amount'], '', repaired);
