import { z } from 'zod';

/**
 * The numbers the service accepts, records and adds up. An amount is a finite number of euros (the
 * sale's currency) from 0 to 1,000,000.00 with at most two decimals; a quantity a whole number from 1
 * to 10,000 (0 allowed for a stock). The same schemas guard the edge (a 400 naming the field) and the
 * events (appending one out of bounds is a bug), so every sum made of them holds in integer cents
 * well inside the integers a double represents exactly: 200 lines of 10,000 x 1,000,000.00 are
 * 2e14 cents, under 2^53.
 */

export const maxAmount = 1_000_000;
export const maxQuantity = 10_000;
export const maxStockQuantity = 1_000_000;

/** True when the number is written with at most two decimals (19.99, 20, 0.5; not 19.999, not 1e-7). */
export const hasAtMostCents = (value: number): boolean => Number(value.toFixed(2)) === value;

/** True for an amount within the bounds, to the cent. */
export const isBoundedAmount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= maxAmount && hasAtMostCents(value);

export const amount = z
  .number()
  .min(0, 'must be an amount of at least 0')
  .max(maxAmount, `must be an amount of at most ${maxAmount}`)
  .refine(hasAtMostCents, 'must be an amount with at most 2 decimals');

const wholeNumber = (min: number, max: number) =>
  z.number().int('must be a whole number').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);

/** How many of a product a line orders. */
export const quantity = wholeNumber(1, maxQuantity);
/** How many of a product are in stock. */
export const stockQuantity = wholeNumber(0, maxStockQuantity);
/** How many parcels a product ships in. */
export const packageCount = wholeNumber(1, 1_000);
/** A product's weight in kilograms, to the gram. */
export const weightKg = z
  .number()
  .min(0, 'must be a weight of at least 0')
  .max(100_000, 'must be a weight of at most 100000 (kg)')
  .refine((value) => Number(value.toFixed(3)) === value, 'must be a weight with at most 3 decimals');
