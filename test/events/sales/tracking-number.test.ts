import { describe, expect, it } from 'vitest';
import { formatTrackingNumber, isTrackingNumber, luhnCheckDigit } from '../../../src/events/sales/tracking-number.ts';

describe('tracking numbers', () => {
  it('when a sequence number is formatted, it reads MC, 12 zero-padded digits and the Luhn check digit', () => {
    expect(formatTrackingNumber(42)).toBe('MC0000000000422');
    expect(formatTrackingNumber(1)).toBe('MC0000000000018');
    expect(formatTrackingNumber(999_999_999_999)).toBe('MC9999999999992');
  });

  it('when the check digit is computed, it agrees with the published Luhn example', () => {
    // 7992739871 has check digit 3 (7992739871 3).
    expect(luhnCheckDigit('7992739871')).toBe('3');
  });

  it('when a number is outside the 12 digits, or not a positive integer, it is refused', () => {
    for (const sequence of [0, -1, 1.5, 1_000_000_000_000, Number.NaN]) {
      expect(() => formatTrackingNumber(sequence)).toThrow(RangeError);
    }
  });

  it('when one digit is mistyped or two neighbours are swapped, the check digit catches it', () => {
    const good = formatTrackingNumber(123_456_789);
    expect(isTrackingNumber(good)).toBe(true);
    const mistyped = `${good.slice(0, 10)}${(Number(good[10]) + 1) % 10}${good.slice(11)}`;
    const swapped = `${good.slice(0, 12)}${good[13]}${good[12]}${good.slice(14)}`;
    expect(isTrackingNumber(mistyped)).toBe(false);
    expect(swapped).not.toBe(good);
    expect(isTrackingNumber(swapped)).toBe(false);
    expect(isTrackingNumber('XX0000000000422')).toBe(false);
    expect(isTrackingNumber('MC000000000042')).toBe(false);
  });
});
