import { describe, expect, it } from 'vitest';
import { cancelledAmounts, reportedSale, saleAmounts, sumAmounts, type SkuTerms } from '../../src/events/e-invoicing/e-reporting-amounts.ts';
import { dayReport } from '../../src/e-invoicing/e-reporting.ts';
import { eReportingXml } from '../../src/e-invoicing/e-reporting-xml.ts';
import { creditNoteData, linesToCredit } from '../../src/invoicing/credit-note-data.ts';
import { invoiceData } from '../../src/invoicing/invoice-data.ts';
import type { SaleDocument } from '../../src/projections/sales/sale-document.ts';
import { aProduct, aSale, aSaleWithCancelledLamp, anIssue, invoiceOptions } from '../invoicing/invoice-fixtures.ts';
import { ttcByRate } from './amounts-by-rate.ts';

/**
 * A day's e-reporting of consumer sales: each sale recorded adds its lines and its shipping fee, each
 * cancelled line takes its amount away, by category of transaction (TLB1 goods, TPS1 services) and VAT
 * rate, as the sale's invoice and credit notes would say them, to the cent.
 */
const seller = { siren: '912345678', vatNumber: 'FR32912345678', name: 'Maison Exemple SAS' };

/** The sale's amounts as the import gives them, with the catalogue's terms of its SKUs. */
const added = (sale: SaleDocument, terms: ReadonlyMap<string, SkuTerms>) => reportedSale(sale, (sku) => terms.get(sku));

const vatByRate = (vat: readonly { rate: number; ttcCents: number }[], sign = 1) => Object.fromEntries(vat.map((line) => [line.rate, sign * line.ttcCents]));

/** The invoice's options for these terms: rates by SKU, goods or services by SKU. */
const optionsFor = (terms: ReadonlyMap<string, SkuTerms>) =>
  invoiceOptions({
    vatRates: new Map([...terms].map(([sku, term]) => [sku, term.rate])),
    operationCategories: new Map([...terms].map(([sku, term]) => [sku, term.category === 'TPS1' ? ('services' as const) : ('goods' as const)])),
  });

describe("a day's e-reporting", () => {
  // The lamp is a service here (its fitting, say) at 10 %; the table is at 5.5 %; the sofa unknown to the catalogue.
  const terms = new Map<string, SkuTerms>([
    ['LAMP-ARC-BLK', { rate: 1000, category: 'TPS1' }],
    ['TAB-NORD-180', { rate: 550, category: 'TLB1' }],
  ]);

  it('when a consumer sale is recorded, it adds each line to its category at its rate and the shipping with the goods, as its invoice says rate by rate', () => {
    const sale = aSale({ shippingAmount: 39.9 });
    const amounts = saleAmounts(added(sale, terms));
    const invoice = invoiceData(sale, anIssue, optionsFor(terms));

    expect(ttcByRate(amounts)).toEqual(vatByRate(invoice.vat));
    expect(amounts['TPS1:1000']).toBe(25_980);
    expect(Object.keys(amounts).sort()).toEqual(['TLB1:2000', 'TLB1:550', 'TLB1:1000', 'TPS1:1000'].sort());
  });

  it('when sales of random lines, rates and shipping fees are recorded, each says what its invoice says, rate by rate, to the cent', () => {
    let state = 7;
    const random = (below: number) => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) % below;
    const rates = [2000, 1000, 550, 210];
    for (let n = 0; n < 200; n++) {
      const products = Array.from({ length: 1 + random(5) }, (_, index) =>
        aProduct({ saleProductId: index + 1, sku: `SKU-${index + 1}`, qty: 1 + random(4), price: (1 + random(250_000)) / 100 }),
      );
      const randomTerms = new Map(
        products.map((product): [string, SkuTerms] => [product.sku, { rate: rates[random(4)]!, category: random(3) === 0 ? 'TPS1' : 'TLB1' }]),
      );
      const sale = aSale({ products, shippingAmount: random(2) === 0 ? 0 : random(10_000) / 100 });
      expect(ttcByRate(saleAmounts(added(sale, randomTerms)))).toEqual(vatByRate(invoiceData(sale, anIssue, optionsFor(randomTerms)).vat));
    }
  });

  it('when a line is cancelled, its amount is taken away as the credit note credits it, the shipping fee kept', () => {
    const sale = aSale({ shippingAmount: 39.9 });
    const counted = added(sale, terms);
    const invoice = invoiceData(sale, anIssue, optionsFor(terms));
    const creditNote = creditNoteData(
      invoice,
      linesToCredit(invoice, aSaleWithCancelledLamp(), [], 'Europe/Paris'),
      { number: 'AV-2026-1', issuedAt: '2026-10-06T08:00:00.000Z', issuedOn: '2026-10-06' },
      invoice.seller,
    );

    const taken = cancelledAmounts(counted, [103]);
    expect(ttcByRate(taken)).toEqual(vatByRate(creditNote.vat, -1));
    expect(taken).toEqual({ 'TPS1:1000': -25_980 });
    // Unknown lines take nothing.
    expect(cancelledAmounts(counted, [999])).toEqual({});
    const day = sumAmounts(saleAmounts(counted), taken);
    expect(day['TPS1:1000']).toBe(0);
    const report = dayReport({ date: '2026-10-05', currency: 'EUR', seller, transactions: 1, amounts: day });
    expect(report.categories.map((category) => category.category)).toEqual(['TLB1']);
    for (const category of report.categories) {
      expect(category.htCents).toBe(category.rates.reduce((sum, rate) => sum + rate.htCents, 0));
    }
    const xml = eReportingXml(report);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<EReport xmlns="urn:sav-order-service:e-reporting:flux-10.3:1">/);
    expect(xml).toContain('<Siren>912345678</Siren>');
    expect(xml).toContain('<TransactionCount>1</TransactionCount>');
    expect(xml).not.toContain('TPS1');
  });

  it('when a sale has only services, its shipping fee is a service too; with no goods known, at the standard rate', () => {
    const services = new Map<string, SkuTerms>([['FIT', { rate: 1000, category: 'TPS1' }]]);
    const sale = aSale({ products: [aProduct({ saleProductId: 1, sku: 'FIT', price: 60 })], shippingAmount: 10 });
    expect(saleAmounts(added(sale, services))).toEqual({ 'TPS1:1000': 7_000 });
    expect(saleAmounts(added(sale, new Map()))).toEqual({ 'TLB1:2000': 7_000 });
  });

  it('when a day has more cancelled than sold, its amounts are negative, base and VAT alike', () => {
    const report = dayReport({ date: '2026-10-05', currency: 'EUR', seller, transactions: 0, amounts: { 'TLB1:2000': -12_000 } });
    expect(report.categories).toEqual([{ category: 'TLB1', htCents: -10_000, vatCents: -2_000, rates: [{ rate: 2000, htCents: -10_000, vatCents: -2_000 }] }]);
    expect(eReportingXml(report)).toContain('<TaxableAmount>-100.00</TaxableAmount>');
  });
});
