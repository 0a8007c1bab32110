import type { CreditNoteData, InvoiceData } from '../../events/invoicing/documents.ts';
import { splitTaxIncluded, type VatLine, type VatRate } from '../../events/invoicing/vat.ts';

/**
 * The lines of an invoice or credit note as EN 16931 counts them: before tax (HT). Prices here are tax
 * included: a line's net amount is its quantity times the unit price before tax the page prints (P.U.
 * HT), and the page's base for a rate is the split of the rate's tax-included total, made once (vat.ts).
 * The two differ by the roundings of the unit prices, a few cents at most: that difference is a
 * document-level charge (or allowance) at the rate, named as a rounding, so that the lines and it add
 * up to the page's base to the cent (BR-S-08, BR-CO-13) and each line's amount is its quantity times its
 * price, as a reader recomputes it. The page's VAT and totals carry over unchanged. The shipping fee is
 * a line per rate it is taxed at, at the base the page prints for it.
 */

export type NetLine = {
  sku: string;
  name: string;
  qty: number;
  /** The unit price before tax, as the page prints it (P.U. HT). */
  unitPriceHtCents: number;
  /** Quantity times unit price before tax. */
  netCents: number;
  rate: VatRate;
  /** Printed with the line: why it counts for nothing. */
  note?: string;
};

/** The rounding at a rate: what its base is above (a charge) or below (an allowance, negative) its lines. */
export type RoundingAdjustment = { rate: VatRate; cents: number };

export type NetFigures = { lines: NetLine[]; roundings: RoundingAdjustment[]; vat: VatLine[] };

type Priced = { sku: string; name: string; qty: number; unitPriceCents: number; rate: VatRate; note?: string };

const netLine = ({ sku, name, qty, unitPriceCents, rate, note }: Priced): NetLine => {
  const unitPriceHtCents = splitTaxIncluded(unitPriceCents, rate).htCents;
  return { sku, name, qty, unitPriceHtCents, netCents: qty * unitPriceHtCents, rate, ...(note === undefined ? {} : { note }) };
};

/**
 * A rate some line is at but the page's breakdown leaves out (its lines count for nothing: free, or
 * cancelled) gets a breakdown of zero, so that every line's rate has one.
 */
const withEveryRate = (vat: readonly VatLine[], lines: readonly { rate: VatRate }[]): VatLine[] => {
  const missing = [...new Set(lines.map((line) => line.rate))].filter((rate) => !vat.some((line) => line.rate === rate));
  return [...vat, ...missing.map((rate) => ({ rate, htCents: 0, vatCents: 0, ttcCents: 0 }))].sort((a, b) => a.rate - b.rate);
};

const figures = (lines: NetLine[], pageVat: readonly VatLine[]): NetFigures => {
  const vat = withEveryRate(pageVat, lines);
  const roundings = vat
    .map(({ rate, htCents }) => ({ rate, cents: htCents - lines.filter((line) => line.rate === rate).reduce((sum, line) => sum + line.netCents, 0) }))
    .filter((rounding) => rounding.cents !== 0);
  return { lines, roundings, vat };
};

const cancelledNote = 'Article annulé, non facturé';

export const invoiceNetFigures = (invoice: InvoiceData): NetFigures => {
  const invoiced = invoice.lines.filter((line) => !line.cancelled);
  const shipping = (invoice.shipping?.parts ?? []).map(({ ttcCents, rate }) =>
    netLine({ sku: '', name: 'Frais de livraison', qty: 1, unitPriceCents: ttcCents, rate }),
  );
  // An invoice has at least one line (BR-16): when nothing at all is invoiced, its cancelled lines are
  // listed at quantity 0, as the page lists them, out of the totals.
  const goods = invoiced.length + shipping.length > 0 ? invoiced.map(netLine) : invoice.lines.map((line) => netLine({ ...line, qty: 0, note: cancelledNote }));
  return figures([...goods, ...shipping], invoice.vat);
};

export const creditNoteNetFigures = (creditNote: CreditNoteData): NetFigures => figures(creditNote.lines.map(netLine), creditNote.vat);
