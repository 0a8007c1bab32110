import { z } from 'zod';
import type { OperationCategory, ProductFields } from '../catalog/events.ts';
import { shippingByRate, standardVatRate, vatRateOfPercent, type VatRate } from '../invoicing/vat.ts';
import { lineCents, toCents } from '../schema/money.ts';

/**
 * What each consumer sale adds to its day's e-reporting (flux 10.3 of the reform's external
 * specifications, "transactions B2C agrégées"): its tax-included amounts by category of transaction and
 * VAT rate, counted on the day it was recorded whether or not anyone asks for its invoice; what a
 * cancellation takes away, on the day it was recorded. The categories are the specifications' (TT-81):
 * TLB1, deliveries of goods subject to VAT; TPS1, services subject to VAT.
 *
 * The amounts are the invoice's (invoicing/invoice-data.ts), so that a day says what the invoices of
 * its sales would: a line is its unit price to the cent times its quantity, at the rate and category the
 * catalogue gives its SKU (the standard rate and goods for a SKU it does not know); the shipping fee is
 * spread over the lines' rates in proportion to their amounts (vat.ts `shippingByRate`) and follows the
 * goods (services only when the sale has no goods). A cancelled line is taken away at the amount, rate
 * and category it was counted with; the shipping fee never is, as a cancellation refunds the products and
 * never the delivery (the credit notes never credit it either).
 */

export const transactionCategory = z.enum(['TLB1', 'TPS1']);
export type TransactionCategory = z.infer<typeof transactionCategory>;

/** The tax-included amount of a day, or of a sale, per category and rate (basis points), keyed `<category>:<rate>`. */
export type AmountsByCategory = Record<string, number>;

/** What the catalogue says of a SKU that a day's e-reporting needs. */
export type SkuTerms = { rate: VatRate; category: TransactionCategory };

export type ReportedAmount = { category: TransactionCategory; rate: VatRate; ttcCents: number };

/** A consumer sale as its day counted it: each line, and the shipping fee's parts. */
export type ReportedSale = { lines: (ReportedAmount & { saleProductId: number })[]; shipping: ReportedAmount[] };

export const transactionCategoryOf = (operationCategory: OperationCategory): TransactionCategory => (operationCategory === 'services' ? 'TPS1' : 'TLB1');

/** A catalogued product's terms. */
export const skuTermsOf = (product: Pick<ProductFields, 'vat_rate' | 'operation_category'>): SkuTerms => ({
  rate: vatRateOfPercent(product.vat_rate),
  category: transactionCategoryOf(product.operation_category),
});

const unknownSku: SkuTerms = { rate: standardVatRate, category: 'TLB1' };

/** What a consumer sale, as imported, adds to its day. */
export const reportedSale = (
  sale: { products: readonly { saleProductId: number; sku: string; price: number; qty: number }[]; shippingAmount: number },
  termsOf: (sku: string) => SkuTerms | undefined,
): ReportedSale => {
  const lines = sale.products.map((product) => ({
    saleProductId: product.saleProductId,
    ...(termsOf(product.sku) ?? unknownSku),
    ttcCents: lineCents(product),
  }));
  const shippingCategory: TransactionCategory = lines.length === 0 || lines.some((line) => line.category === 'TLB1') ? 'TLB1' : 'TPS1';
  const shipping = shippingByRate(toCents(sale.shippingAmount), lines).map((part) => ({ category: shippingCategory, ...part }));
  return { lines, shipping };
};

const keyOf = (amount: ReportedAmount): string => `${amount.category}:${amount.rate}`;

/** The amounts of a day or a sale as category, rate and amount, the zero ones left out: their keys read back. */
export const reportedAmountsOf = (amounts: AmountsByCategory): ReportedAmount[] =>
  Object.entries(amounts)
    .filter(([, ttcCents]) => ttcCents !== 0)
    .map(([key, ttcCents]) => {
      const [category, rate] = key.split(':');
      return { category: transactionCategory.parse(category), rate: Number(rate), ttcCents };
    });

const sum = (amounts: readonly ReportedAmount[], sign: 1 | -1): AmountsByCategory => {
  const sums: AmountsByCategory = {};
  for (const amount of amounts) {
    if (amount.ttcCents !== 0) sums[keyOf(amount)] = (sums[keyOf(amount)] ?? 0) + sign * amount.ttcCents;
  }
  return sums;
};

/** What a sale adds to the day it was recorded. */
export const saleAmounts = (sale: ReportedSale): AmountsByCategory => sum([...sale.lines, ...sale.shipping], 1);

/** What cancelling some of a sale's lines takes from the day it was recorded (lines it does not have take nothing). */
export const cancelledAmounts = (sale: ReportedSale, saleProductIds: readonly number[]): AmountsByCategory =>
  sum(
    sale.lines.filter((line) => saleProductIds.includes(line.saleProductId)),
    -1,
  );

export const sumAmounts = (day: AmountsByCategory, more: AmountsByCategory): AmountsByCategory => {
  const total = { ...day };
  for (const [key, cents] of Object.entries(more)) total[key] = (total[key] ?? 0) + cents;
  return total;
};
