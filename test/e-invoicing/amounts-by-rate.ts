import { reportedAmountsOf, type AmountsByCategory } from '../../src/events/e-invoicing/e-reporting-amounts.ts';

/** A day's or a sale's tax-included amounts per VAT rate (basis points), whatever the category: as an invoice's VAT lines give them. */
export const ttcByRate = (amounts: AmountsByCategory): Record<number, number> => {
  const rates: Record<number, number> = {};
  for (const { rate, ttcCents } of reportedAmountsOf(amounts)) rates[rate] = (rates[rate] ?? 0) + ttcCents;
  return rates;
};
