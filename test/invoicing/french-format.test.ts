import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney, formatRate } from '../../src/invoicing/french-format.ts';

const nbsp = '\u00a0';

describe('French formats on an invoice', () => {
  it('when an amount has thousands, they are grouped by no-break spaces and the cents follow a comma', () => {
    expect(formatMoney(123_456, 'EUR')).toBe(`1${nbsp}234,56${nbsp}€`);
    expect(formatMoney(100_000_000, 'EUR')).toBe(`1${nbsp}000${nbsp}000,00${nbsp}€`);
    expect(formatMoney(5, 'EUR')).toBe(`0,05${nbsp}€`);
    expect(formatMoney(-12_990, 'EUR')).toBe(`-129,90${nbsp}€`);
  });

  it('when the currency is not the euro, its code follows the amount', () => {
    expect(formatMoney(1_200, 'CHF')).toBe(`12,00${nbsp}CHF`);
  });

  it('when a rate has a decimal, it is written with a comma', () => {
    expect(formatRate(2000)).toBe(`20${nbsp}%`);
    expect(formatRate(550)).toBe(`5,5${nbsp}%`);
    expect(formatRate(210)).toBe(`2,1${nbsp}%`);
  });

  it('a date reads day first', () => {
    expect(formatDate('2026-10-02')).toBe('02/10/2026');
  });
});
