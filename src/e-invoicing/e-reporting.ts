import { z } from 'zod';
import { reportedAmountsOf, transactionCategory, type AmountsByCategory } from '../events/e-invoicing/e-reporting-amounts.ts';
import { splitTaxIncluded, type VatRate } from '../events/invoicing/vat.ts';

/**
 * A day's e-reporting of consumer sales (flux 10.3): the day's amounts by category and rate, as the
 * platform-documents read model summed them from the sales and cancellations recorded that day
 * (events/e-invoicing/e-reporting-amounts.ts), summed tax included and then split once into base and
 * VAT (vat.ts), as the invoices split their totals; checked by its zod schema before it is written out.
 */

const cents = z.number().int().safe();

/** A day's report, as it is checked before it is written out and sent. */
export const eReport = z.object({
  date: z.iso.date(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  seller: z.object({ siren: z.string().regex(/^\d{9}$/), vatNumber: z.string().regex(/^FR[0-9A-Z]{2}\d{9}$/), name: z.string().min(1).max(120) }),
  /** How many consumer sales were recorded that day (its cancellations only take amounts away). */
  transactions: z.number().int().min(0),
  categories: z.array(
    z.object({
      category: transactionCategory,
      htCents: cents,
      vatCents: cents,
      rates: z.array(z.object({ rate: z.number().int().min(0).max(10_000), htCents: cents, vatCents: cents })).min(1),
    }),
  ),
});
export type EReport = z.infer<typeof eReport>;

/** Splits a signed tax-included amount: a credit note's negative amounts split as their opposite would. */
const split = (ttcCents: number, rate: VatRate) => {
  const { htCents, vatCents } = splitTaxIncluded(Math.abs(ttcCents), rate);
  return ttcCents < 0 ? { htCents: -htCents, vatCents: -vatCents } : { htCents, vatCents };
};

export const dayReport = (day: { date: string; currency: string; seller: EReport['seller']; transactions: number; amounts: AmountsByCategory }): EReport => {
  const categories = transactionCategory.options.flatMap((category) => {
    const rates = reportedAmountsOf(day.amounts)
      .filter((amount) => amount.category === category)
      .map(({ rate, ttcCents }) => ({ rate, ...split(ttcCents, rate) }))
      .sort((a, b) => a.rate - b.rate);
    if (rates.length === 0) return [];
    const htCents = rates.reduce((sum, rate) => sum + rate.htCents, 0);
    const vatCents = rates.reduce((sum, rate) => sum + rate.vatCents, 0);
    return [{ category, htCents, vatCents, rates }];
  });
  return eReport.parse({ date: day.date, currency: day.currency, seller: day.seller, transactions: day.transactions, categories });
};
