import { describe, expect, it } from 'vitest';
import { amount, maxAmount, maxQuantity } from '../../../src/events/schema/bounded-numbers.ts';
import { fromCents, lineAmount, lineCents, sumCents, toCents } from '../../../src/events/schema/money.ts';

describe('money, added up in integer cents', () => {
  it('when lines are priced with cents a double cannot hold exactly, their sum is exact to the cent', () => {
    const lines = [
      { price: 0.1, qty: 3 },
      { price: 1.15, qty: 3 },
      { price: 19.99, qty: 7 },
    ];

    // In doubles, 0.1 * 3 is 0.30000000000000004, 1.15 * 3 is 3.4499999999999997, 19.99 * 7 is 139.92999999999998.
    expect(lines.map(lineCents)).toEqual([30, 345, 13_993]);
    expect(fromCents(sumCents(lines.map(lineCents)))).toBe(143.68);
    expect(lineAmount({ price: 1.15, qty: 3 })).toBe(3.45);
  });

  it('when every line of the largest order is at its bounds, its total in cents is still an exact integer', () => {
    const line = { price: maxAmount, qty: maxQuantity };
    const cents = sumCents(Array.from({ length: 200 }, () => lineCents(line)));

    expect(cents).toBe(200 * 10_000 * 100_000_000);
    expect(Number.isSafeInteger(cents)).toBe(true);
  });

  it('when an amount of an old log has more decimals, it is rounded half up to the cent', () => {
    expect(toCents(10.005)).toBe(1_001);
    expect(toCents(1.115)).toBe(112);
  });

  it('when the amounts a wire can carry go through cents and back, they come back the same', () => {
    for (const value of [0, 0.01, 0.07, 0.29, 1.15, 4.35, 19.99, 129.9, 999_999.99, 1_000_000]) {
      expect(amount.parse(fromCents(toCents(value)))).toBe(value);
    }
  });
});
