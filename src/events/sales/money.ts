/** Amounts are decimal (in the sale's currency) held in floating point, rounded to the cent. */

// Cutting the product to 15 significant digits first drops the binary noise (10.005 * 100 is
// 1000.4999999999999), so halves round up as they would on paper.
export const roundToCents = (amount: number): number => Math.round(Number((amount * 100).toPrecision(15))) / 100;

/** What a product line costs the customer: unit price times quantity, to the cent. */
export const lineAmount = (line: { price: number; qty: number }): number => roundToCents(line.price * line.qty);

export const sumToCents = (amounts: readonly number[]): number => roundToCents(amounts.reduce((sum, amount) => sum + amount, 0));
