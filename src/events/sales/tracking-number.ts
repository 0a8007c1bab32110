/**
 * Tracking numbers: `MC` + the line's number in the `tracking` sequence, zero-padded to 12 digits, +
 * one Luhn check digit computed over those 12 digits: 15 characters, number 42 gives `MC0000000000422`.
 * The check digit lets a scanner or a person typing the number catch a wrong digit or most swapped pairs.
 */

const prefix = 'MC';
const digits = 12;
const maxSequence = 10 ** digits - 1;
const format = /^MC(\d{12})(\d)$/;

/** The Luhn check digit of a string of digits. */
export const luhnCheckDigit = (payload: string): string => {
  let sum = 0;
  // From the rightmost payload digit, every other digit is doubled (the check digit will sit to its right).
  for (let index = 0; index < payload.length; index++) {
    let digit = Number(payload[payload.length - 1 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
};

export const formatTrackingNumber = (sequence: number): string => {
  if (!Number.isSafeInteger(sequence) || sequence < 1 || sequence > maxSequence) {
    throw new RangeError(`A tracking sequence number must be an integer from 1 to ${maxSequence}, got ${sequence}`);
  }
  const payload = String(sequence).padStart(digits, '0');
  return `${prefix}${payload}${luhnCheckDigit(payload)}`;
};

/** True for a well-formed tracking number whose check digit is right. */
export const isTrackingNumber = (value: string): boolean => {
  const match = format.exec(value);
  return match !== null && luhnCheckDigit(match[1] as string) === match[2];
};
