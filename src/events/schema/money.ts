/**
 * Money is added up in integer cents, exactly; amounts travel (JSON, events, read models) as decimal
 * euros with at most two decimals (bounded-numbers.ts), converted here at the edges of a sum.
 */

/**
 * An amount as whole cents. Cutting the product to 15 significant digits first drops the binary noise
 * (10.005 * 100 is 1000.4999999999999), so that an amount with more decimals, as an old log may hold,
 * rounds half up as it would on paper.
 */
export const toCents = (amount: number): number => Math.round(Number((amount * 100).toPrecision(15)));

/** Whole cents as the decimal amount written on the wire: the double nearest to `cents / 100`. */
export const fromCents = (cents: number): number => cents / 100;

/** What a product line costs the customer, in cents: unit price (to the cent) times quantity. */
export const lineCents = (line: { price: number; qty: number }): number => toCents(line.price) * line.qty;

/** The same, as an amount. */
export const lineAmount = (line: { price: number; qty: number }): number => fromCents(lineCents(line));

export const sumCents = (cents: readonly number[]): number => cents.reduce((sum, value) => sum + value, 0);

/** An amount to the cent (half up), as the wire writes it. */
export const roundToCents = (amount: number): number => fromCents(toCents(amount));
