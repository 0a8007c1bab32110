import type { VatRate } from '../events/invoicing/vat.ts';

/**
 * How amounts, rates and dates read on a French invoice: `1 234,56 €`, `5,5 %`, `02/10/2026`. The
 * spaces are no-break spaces (U+00A0): an amount never wraps inside a table cell, and the embedded
 * font has that glyph (not always the narrow one French typography prefers).
 */

const space = '\u00a0';

const currencySigns: Record<string, string> = { EUR: '€' };

export const formatMoney = (cents: number, currency: string): string => {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  const units = String(Math.floor(absolute / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, space);
  const fraction = String(absolute % 100).padStart(2, '0');
  return `${sign}${units},${fraction}${space}${currencySigns[currency] ?? currency}`;
};

export const formatRate = (rate: VatRate): string => `${String(rate / 100).replace('.', ',')}${space}%`;

/** A local date YYYY-MM-DD as DD/MM/YYYY. */
export const formatDate = (localDate: string): string => {
  const [year, month, day] = localDate.split('-');
  return `${day}/${month}/${year}`;
};
