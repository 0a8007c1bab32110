import type { VatRate } from '../../events/invoicing/vat.ts';
import { branch, leaf } from './xml-elements.ts';

/** How the Cross Industry Invoice writes amounts, rates, dates and VAT categories. */

/** Cents as a decimal amount: 140780 is 1407.80. */
export const decimalAmount = (cents: number): string => {
  const absolute = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
};

export const percent = (rate: VatRate): string => decimalAmount(rate);

export const dateTime = (localDate: string, type: 'udt' | 'qdt' = 'udt'): string =>
  leaf(`${type}:DateTimeString`, localDate.replaceAll('-', ''), { format: '102' });

// UNTDID 5305: S standard rate, Z zero rate (a rate of 0 is not a standard rate, BR-S-05).
export const categoryCode = (rate: VatRate): string => (rate === 0 ? 'Z' : 'S');

/** A VAT category with its rate, on a line (ApplicableTradeTax) or a document-level charge (CategoryTradeTax). */
export const categoryTax = (name: 'ram:ApplicableTradeTax' | 'ram:CategoryTradeTax', rate: VatRate): string =>
  branch(name, [leaf('ram:TypeCode', 'VAT'), leaf('ram:CategoryCode', categoryCode(rate)), leaf('ram:RateApplicablePercent', percent(rate))]);
