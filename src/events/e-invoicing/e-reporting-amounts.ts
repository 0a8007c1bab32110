import { z } from 'zod';
import type { CreditNoteData, InvoiceData } from '../invoicing/documents.ts';

/**
 * What each consumer document adds to its day's e-reporting (flux 10.3 of the reform's external
 * specifications, "transactions B2C agrégées"): its tax-included amounts by category of transaction
 * and VAT rate. A consumer's invoice counts on the day it was issued, a credit note against the day it
 * was issued (negative amounts). The categories are the specifications' (TT-81): TLB1, deliveries of
 * goods subject to VAT; TPS1, services subject to VAT. A line's category is its document's record of
 * its product's; the shipping fee, accessory to the goods it carries, follows them (services only
 * when the document has no goods).
 */

export const transactionCategory = z.enum(['TLB1', 'TPS1']);
export type TransactionCategory = z.infer<typeof transactionCategory>;

/** The tax-included amount of a day, or of a document, per category and rate (basis points), keyed `<category>:<rate>`. */
export type AmountsByCategory = Record<string, number>;

const keyOf = (category: TransactionCategory, rate: number): string => `${category}:${rate}`;

const add = (amounts: AmountsByCategory, category: TransactionCategory, rate: number, cents: number) => {
  if (cents === 0) return;
  amounts[keyOf(category, rate)] = (amounts[keyOf(category, rate)] ?? 0) + cents;
};

const categoryOf = (line: { operationCategory?: 'goods' | 'services' }): TransactionCategory => (line.operationCategory === 'services' ? 'TPS1' : 'TLB1');

/** What a consumer's invoice adds to its day. */
export const invoiceAmounts = (invoice: InvoiceData): AmountsByCategory => {
  const amounts: AmountsByCategory = {};
  const lines = invoice.lines.filter((line) => !line.cancelled);
  for (const line of lines) add(amounts, categoryOf(line), line.rate, line.totalCents);
  const shippingCategory = lines.some((line) => categoryOf(line) === 'TLB1') || lines.length === 0 ? 'TLB1' : 'TPS1';
  for (const part of invoice.shipping?.parts ?? []) add(amounts, shippingCategory, part.rate, part.ttcCents);
  return amounts;
};

/** What a consumer's credit note takes from its day. */
export const creditNoteAmounts = (creditNote: CreditNoteData): AmountsByCategory => {
  const amounts: AmountsByCategory = {};
  for (const line of creditNote.lines) add(amounts, categoryOf(line), line.rate, -line.totalCents);
  return amounts;
};

export const sumAmounts = (day: AmountsByCategory, document: AmountsByCategory): AmountsByCategory => {
  const sum = { ...day };
  for (const [key, cents] of Object.entries(document)) sum[key] = (sum[key] ?? 0) + cents;
  return sum;
};
