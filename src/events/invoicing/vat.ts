/**
 * French VAT on tax-included prices, in whole cents. Rates are in basis points (2000 = 20 %) so that
 * every split is integer arithmetic: no amount is ever a float here.
 */
export type VatRate = number;

/** The standard rate; the order import carries no rate per item, so every line is at this one. */
export const standardVatRate: VatRate = 2000;

/** A rate in percent, as the catalogue gives it, in basis points (5.5 % = 550). */
export const vatRateOfPercent = (percent: number): VatRate => Math.round(percent * 100);

export type VatLine = { rate: VatRate; htCents: number; vatCents: number; ttcCents: number };

export type TaxedAmount = { ttcCents: number; rate: VatRate };

/**
 * A tax-included amount split into base (HT) and VAT: the base is rounded half up to the cent and the
 * VAT is what remains, so that HT + TVA is the amount paid, to the cent.
 */
export const splitTaxIncluded = (ttcCents: number, rate: VatRate): VatLine => {
  const denominator = 10_000 + rate;
  const htCents = Math.floor((2 * ttcCents * 10_000 + denominator) / (2 * denominator));
  return { rate, htCents, vatCents: ttcCents - htCents, ttcCents };
};

const totalsByRate = (amounts: readonly TaxedAmount[]): Map<VatRate, number> => {
  const totals = new Map<VatRate, number>();
  for (const { ttcCents, rate } of amounts) totals.set(rate, (totals.get(rate) ?? 0) + ttcCents);
  return totals;
};

/**
 * One line per rate, by increasing rate. The split is made once on each rate's total rather than per
 * line and summed, so that per-line roundings cannot add up to a VAT the customer did not pay.
 */
export const vatBreakdown = (amounts: readonly TaxedAmount[]): VatLine[] =>
  [...totalsByRate(amounts)]
    .filter(([, ttcCents]) => ttcCents > 0)
    .sort(([a], [b]) => a - b)
    .map(([rate, ttcCents]) => splitTaxIncluded(ttcCents, rate));

/**
 * The shipping fee follows the VAT of the goods it carries: their rate when they share one, else it is
 * spread over their rates in proportion to their tax-included amounts (largest remainder, so that the
 * parts add up to the fee). With no goods left to invoice, the standard rate.
 */
export const shippingByRate = (shippingCents: number, goods: readonly TaxedAmount[]): TaxedAmount[] => {
  if (shippingCents <= 0) return [];
  const rates = [...totalsByRate(goods)].filter(([, ttcCents]) => ttcCents > 0).sort(([a], [b]) => a - b);
  const goodsCents = rates.reduce((sum, [, ttcCents]) => sum + ttcCents, 0);
  if (goodsCents === 0) return [{ ttcCents: shippingCents, rate: standardVatRate }];

  // BigInt: a fee times an order's amount may exceed the integers a double holds exactly.
  const parts = rates.map(([rate, ttcCents]) => {
    const product = BigInt(shippingCents) * BigInt(ttcCents);
    return { rate, ttcCents: Number(product / BigInt(goodsCents)), remainder: product % BigInt(goodsCents) };
  });
  let left = shippingCents - parts.reduce((sum, part) => sum + part.ttcCents, 0);
  const byRemainder = [...parts].sort((a, b) => (a.remainder === b.remainder ? a.rate - b.rate : a.remainder > b.remainder ? -1 : 1));
  for (const part of byRemainder) {
    if (left === 0) break;
    part.ttcCents += 1;
    left -= 1;
  }
  return parts.filter((part) => part.ttcCents > 0).map(({ rate, ttcCents }) => ({ rate, ttcCents }));
};
