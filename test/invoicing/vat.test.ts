import { describe, expect, it } from 'vitest';
import { toCents } from '../../src/events/schema/money.ts';
import { shippingByRate, splitTaxIncluded, standardVatRate, vatBreakdown } from '../../src/events/invoicing/vat.ts';

describe('VAT on tax-included amounts', () => {
  it('when an amount is tax-included at 20 %, its base is the amount divided by 1.2 and the VAT the rest', () => {
    expect(splitTaxIncluded(12_000, 2000)).toEqual({ rate: 2000, htCents: 10_000, vatCents: 2000, ttcCents: 12_000 });
    expect(splitTaxIncluded(140_780, 2000)).toEqual({ rate: 2000, htCents: 117_317, vatCents: 23_463, ttcCents: 140_780 });
  });

  it('when the base falls on half a cent, it is rounded up and the VAT takes the other half', () => {
    // 3 / 1.2 = 2.5 cents
    expect(splitTaxIncluded(3, 2000)).toEqual({ rate: 2000, htCents: 3, vatCents: 0, ttcCents: 3 });
  });

  it('when the rate is a reduced one, the split uses it', () => {
    expect(splitTaxIncluded(10_550, 550)).toEqual({ rate: 550, htCents: 10_000, vatCents: 550, ttcCents: 10_550 });
    expect(splitTaxIncluded(1_100, 1000)).toEqual({ rate: 1000, htCents: 1_000, vatCents: 100, ttcCents: 1_100 });
  });

  it('whatever the amount and the rate, base plus VAT is the amount and the base is the nearest cent', () => {
    const wrong: string[] = [];
    for (const rate of [0, 210, 550, 1000, 2000]) {
      for (let ttcCents = 0; ttcCents <= 5_000; ttcCents += 7) {
        const { htCents, vatCents } = splitTaxIncluded(ttcCents, rate);
        const exactBase = (ttcCents * 10_000) / (10_000 + rate);
        if (htCents + vatCents !== ttcCents || Math.abs(htCents - exactBase) > 0.5) wrong.push(`${ttcCents} at ${rate}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('when lines share a rate, the VAT is computed once on their total, not summed from rounded lines', () => {
    // Each 0.10 € line alone would be 8 + 2 cents; three of them are 25 + 5.
    expect(vatBreakdown([10, 10, 10].map((ttcCents) => ({ ttcCents, rate: 2000 })))).toEqual([{ rate: 2000, htCents: 25, vatCents: 5, ttcCents: 30 }]);
  });

  it('when lines have several rates, there is one line per rate, by increasing rate, and nothing for a rate with no amount', () => {
    const breakdown = vatBreakdown([
      { ttcCents: 64_900, rate: 2000 },
      { ttcCents: 10_550, rate: 550 },
      { ttcCents: 0, rate: 1000 },
      { ttcCents: 49_900, rate: 2000 },
    ]);
    expect(breakdown).toEqual([
      { rate: 550, htCents: 10_000, vatCents: 550, ttcCents: 10_550 },
      { rate: 2000, htCents: 95_667, vatCents: 19_133, ttcCents: 114_800 },
    ]);
  });

  it('when an amount carries binary noise, it is counted in whole cents', () => {
    expect(toCents(129.9)).toBe(12_990);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(10.005)).toBe(1_001);
  });
});

describe('the VAT of the shipping fee', () => {
  it('when there is no fee, there is nothing to tax', () => {
    expect(shippingByRate(0, [{ ttcCents: 1_000, rate: 2000 }])).toEqual([]);
  });

  it('when the goods share one rate, the fee is taxed at it', () => {
    expect(
      shippingByRate(4_990, [
        { ttcCents: 1_000, rate: 550 },
        { ttcCents: 2_000, rate: 550 },
      ]),
    ).toEqual([{ ttcCents: 4_990, rate: 550 }]);
  });

  it('when the goods have several rates, the fee is spread in proportion to their amounts and the parts add up to it', () => {
    // 1 000 cents over 2/3 and 1/3: 666.67 and 333.33, the spare cent to the largest remainder.
    expect(
      shippingByRate(1_000, [
        { ttcCents: 2_000, rate: 2000 },
        { ttcCents: 1_000, rate: 550 },
      ]),
    ).toEqual([
      { ttcCents: 333, rate: 550 },
      { ttcCents: 667, rate: 2000 },
    ]);
    const parts = shippingByRate(1, [
      { ttcCents: 1, rate: 2000 },
      { ttcCents: 1, rate: 550 },
      { ttcCents: 1, rate: 1000 },
    ]);
    expect(parts).toEqual([{ ttcCents: 1, rate: 550 }]);
  });

  it('when no goods are left to invoice, the fee is taxed at the standard rate', () => {
    expect(shippingByRate(990, [])).toEqual([{ ttcCents: 990, rate: standardVatRate }]);
  });
});
