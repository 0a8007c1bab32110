/**
 * GS1 check digit (mod 10) of a GTIN body: from the rightmost digit leftwards, weights 3, 1, 3, 1...
 * Package scanning rejects a code whose last digit does not match, so demo codes must carry it.
 */
export const gs1CheckDigit = (body: string): number => {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    const digit = Number(body[body.length - 1 - i]);
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
};

/** A GTIN-14 from its 13-digit body. */
export const gtin14 = (body: string): string => {
  if (!/^[0-9]{13}$/.test(body)) throw new RangeError(`a GTIN-14 body has 13 digits, got "${body}"`);
  return `${body}${gs1CheckDigit(body)}`;
};
