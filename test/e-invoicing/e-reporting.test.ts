import { describe, expect, it } from 'vitest';
import { creditNoteAmounts, invoiceAmounts, sumAmounts } from '../../src/events/e-invoicing/e-reporting-amounts.ts';
import { dayReport } from '../../src/e-invoicing/e-reporting.ts';
import { eReportingXml } from '../../src/e-invoicing/e-reporting-xml.ts';
import { creditNoteData, linesToCredit } from '../../src/invoicing/credit-note-data.ts';
import { invoiceData } from '../../src/invoicing/invoice-data.ts';
import { aSale, aSaleWithCancelledLamp, anIssue, invoiceOptions } from '../invoicing/invoice-fixtures.ts';

/**
 * A day's e-reporting of consumer sales: its invoices add, its credit notes take away, by category of
 * transaction (TLB1 goods, TPS1 services) and VAT rate, the shipping following the goods.
 */
const seller = { siren: '912345678', vatNumber: 'FR32912345678', name: 'Maison Exemple SAS' };

describe("a day's e-reporting", () => {
  // The lamp is a service here (its fitting, say).
  const invoice = invoiceData(aSale(), anIssue, invoiceOptions({ operationCategories: new Map([['LAMP-ARC-BLK', 'services' as const]]) }));

  it('when a consumer is invoiced goods and a service, each goes to its category at its rate, the shipping with the goods', () => {
    const amounts = invoiceAmounts(invoice);
    const lamp = invoice.lines.find((line) => line.sku === 'LAMP-ARC-BLK')!;
    expect(amounts[`TPS1:${lamp.rate}`]).toBe(lamp.totalCents);
    const total = Object.values(amounts).reduce((sum, cents) => sum + cents, 0);
    expect(total).toBe(invoice.totals.ttcCents);
  });

  it('when a credit note follows, its amounts are taken from its day, and the report splits each category and rate into base and VAT', () => {
    const creditNote = creditNoteData(
      invoice,
      linesToCredit(invoice, aSaleWithCancelledLamp(), [], 'Europe/Paris'),
      { number: 'AV-2026-1', issuedAt: '2026-10-06T08:00:00.000Z', issuedOn: '2026-10-06' },
      invoice.seller,
    );
    const day = sumAmounts(invoiceAmounts(invoice), creditNoteAmounts(creditNote));
    const report = dayReport({ date: '2026-10-05', currency: 'EUR', seller, documents: 2, amounts: day });
    expect(report.categories.map((category) => category.category)).toEqual(['TLB1']);
    for (const category of report.categories) {
      expect(category.htCents).toBe(category.rates.reduce((sum, rate) => sum + rate.htCents, 0));
    }
    const xml = eReportingXml(report);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<EReport xmlns="urn:sav-order-service:e-reporting:flux-10.3:1">/);
    expect(xml).toContain('<Siren>912345678</Siren>');
    expect(xml).not.toContain('TPS1');
  });

  it('when a day has more credited than invoiced, its amounts are negative, base and VAT alike', () => {
    const report = dayReport({ date: '2026-10-05', currency: 'EUR', seller, documents: 1, amounts: { 'TLB1:2000': -12_000 } });
    expect(report.categories).toEqual([{ category: 'TLB1', htCents: -10_000, vatCents: -2_000, rates: [{ rate: 2000, htCents: -10_000, vatCents: -2_000 }] }]);
    expect(eReportingXml(report)).toContain('<TaxableAmount>-100.00</TaxableAmount>');
  });
});
