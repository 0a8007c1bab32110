/**
 * The identifiers a French company prints on its invoices, checked as INSEE and the tax
 * administration define them: a SIREN is 9 digits with a Luhn check digit, a SIRET is the SIREN and a
 * 5-digit establishment number (NIC), 14 digits with a Luhn check over all of them (La Poste's
 * establishments, SIREN 356 000 000, are numbered so that the sum of their digits is a multiple of 5
 * instead), and the intra-EU VAT number of a French company is `FR`, a 2-digit key computed from the
 * SIREN, then the SIREN.
 */

const laPosteSiren = '356000000';

/** The Luhn check: from the right, every second digit doubled (its digits summed), the total a multiple of 10. */
export const luhnValid = (digits: string): boolean => {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
};

export const isSiren = (value: string): boolean => /^\d{9}$/.test(value) && luhnValid(value);

export const isSiret = (value: string): boolean => {
  if (!/^\d{14}$/.test(value)) return false;
  if (value.startsWith(laPosteSiren)) return [...value].reduce((sum, digit) => sum + Number(digit), 0) % 5 === 0;
  return isSiren(value.slice(0, 9)) && luhnValid(value);
};

/** The 2-digit key of a French VAT number: (12 + 3 × (SIREN mod 97)) mod 97. */
export const frenchVatKey = (siren: string): string => String((12 + 3 * (Number(siren) % 97)) % 97).padStart(2, '0');

export const frenchVatNumber = (siren: string): string => `FR${frenchVatKey(siren)}${siren}`;

/** `123 456 789`, `123 456 789 00012`: as INSEE prints them. */
export const formatSiren = (siren: string): string => siren.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3');
export const formatSiret = (siret: string): string => `${formatSiren(siret.slice(0, 9))} ${siret.slice(9)}`;
