import { describe, expect, it } from 'vitest';
import { creditNoteData } from '../../src/invoicing/credit-note-data.ts';
import { creditNoteNetFigures, invoiceNetFigures, type NetFigures } from '../../src/invoicing/factur-x/net-lines.ts';
import { invoiceData } from '../../src/invoicing/invoice-data.ts';
import { aSale, aSaleWithCancelledLamp, anIssue, cancelledAt, invoiceOptions, randomInvoices } from './invoice-fixtures.ts';

/** What EN 16931 recomputes: per rate, lines plus charges less allowances is the base (BR-S-08). */
const basesOf = ({ lines, roundings, vat }: NetFigures): Map<number, number> =>
  new Map(
    vat.map(({ rate }) => [
      rate,
      lines.filter((line) => line.rate === rate).reduce((sum, line) => sum + line.netCents, 0) +
        roundings.filter((rounding) => rounding.rate === rate).reduce((sum, rounding) => sum + rounding.cents, 0),
    ]),
  );

describe('the lines of a Factur-X invoice, before tax', () => {
  it('when prices are tax included, a line is its quantity times the unit price HT of the page, and a rounding brings the rate to the page base', () => {
    const invoice = invoiceData({ ...aSaleWithCancelledLamp(), shippingAmount: 49.9 }, anIssue, invoiceOptions());
    const figures = invoiceNetFigures(invoice);
    expect(figures.lines.map(({ sku, qty, unitPriceHtCents, netCents }) => [sku, qty, unitPriceHtCents, netCents])).toEqual([
      ['CAN-OSLO-3P-GRY', 1, 54_083, 54_083],
      ['TAB-NORD-180', 1, 41_583, 41_583],
      ['', 1, 4_158, 4_158],
    ]);
    expect(figures.lines[2]?.name).toBe('Frais de livraison');
    // 1 197,90 € TTC at 20 %: a base of 998,25 €, one cent above the lines' 998,24 €.
    expect(figures.roundings).toEqual([{ rate: 2000, cents: 1 }]);
    expect(basesOf(figures)).toEqual(new Map([[2000, 99_825]]));
  });

  it('when 2,000 orders of random lines at the four French rates are invoiced, every rate adds up to the page base, and the roundings stay within half a cent a unit', () => {
    for (const { invoice } of randomInvoices(7, 2_000)) {
      const figures = invoiceNetFigures(invoice);
      expect(basesOf(figures)).toEqual(new Map(invoice.vat.map((line) => [line.rate, line.htCents])));
      for (const rounding of figures.roundings) {
        const units = figures.lines.filter((line) => line.rate === rounding.rate).reduce((sum, line) => sum + line.qty, 0);
        // Half a cent a unit price, half a cent for the base.
        expect(2 * Math.abs(rounding.cents)).toBeLessThanOrEqual(units + 1);
      }
    }
  });

  it('when every product was cancelled before invoicing and there is no fee, the lines are listed at quantity 0 and a zero base names their rate', () => {
    const sale = aSale();
    const invoice = invoiceData(
      { ...sale, cancelledAt, products: sale.products.map((product) => ({ ...product, state: 'cancelled', cancelledAt })) },
      anIssue,
      invoiceOptions(),
    );
    const figures = invoiceNetFigures(invoice);
    expect(figures.lines.map(({ qty, netCents, note }) => [qty, netCents, note])).toEqual([
      [0, 0, 'Article annulé, non facturé'],
      [0, 0, 'Article annulé, non facturé'],
      [0, 0, 'Article annulé, non facturé'],
    ]);
    expect(figures.vat).toEqual([{ rate: 2000, htCents: 0, vatCents: 0, ttcCents: 0 }]);
    expect(figures.roundings).toEqual([]);
  });

  it('when a credit note credits lines, they are valued as the invoice values them and add up to its base', () => {
    const invoice = invoiceData(aSale(), anIssue, invoiceOptions());
    const lines = invoice.lines.filter((line) => line.sku !== 'CAN-OSLO-3P-GRY').map(({ cancelled: _, ...line }) => ({ ...line, cancelledOn: '2026-10-06' }));
    const creditNote = creditNoteData(invoice, lines, { number: 'AV-2026-1', issuedAt: '2026-10-06T08:00:00.000Z', issuedOn: '2026-10-06' }, invoice.seller);
    const figures = creditNoteNetFigures(creditNote);
    expect(figures.lines.map(({ sku, netCents }) => [sku, netCents])).toEqual([
      ['TAB-NORD-180', 41_583],
      ['LAMP-ARC-BLK', 21_650],
    ]);
    expect(basesOf(figures)).toEqual(new Map([[2000, creditNote.totals.htCents]]));
  });
});
