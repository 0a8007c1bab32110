import { describe, expect, it } from 'vitest';
import { demoSeller } from '../../src/config/seller-settings.ts';
import { invoiceData } from '../../src/invoicing/invoice-data.ts';
import { aSale, aSaleWithCancelledLamp, anIssue, cancelledAt, invoiceOptions, randomInvoices } from './invoice-fixtures.ts';

describe('the data of an invoice', () => {
  it("when a sale is paid in full, every line is invoiced at 20 % and the totals are the order's", () => {
    const invoice = invoiceData(aSale(), anIssue, invoiceOptions());
    expect(invoice.lines).toEqual([
      {
        saleProductId: 101,
        sku: 'CAN-OSLO-3P-GRY',
        name: 'Canapé 3 places Oslo gris',
        qty: 1,
        unitPriceCents: 64_900,
        totalCents: 64_900,
        rate: 2000,
        cancelled: false,
        operationCategory: 'goods',
      },
      {
        saleProductId: 102,
        sku: 'TAB-NORD-180',
        name: 'Table à manger Nord 180 cm',
        qty: 1,
        unitPriceCents: 49_900,
        totalCents: 49_900,
        rate: 2000,
        cancelled: false,
        operationCategory: 'goods',
      },
      {
        saleProductId: 103,
        sku: 'LAMP-ARC-BLK',
        name: 'Lampadaire arc noir',
        qty: 2,
        unitPriceCents: 12_990,
        totalCents: 25_980,
        rate: 2000,
        cancelled: false,
        operationCategory: 'goods',
      },
    ]);
    expect(invoice.vat).toEqual([{ rate: 2000, htCents: 117_317, vatCents: 23_463, ttcCents: 140_780 }]);
    expect(invoice.totals).toEqual({ htCents: 117_317, vatCents: 23_463, ttcCents: 140_780 });
    expect(invoice.shipping).toBeNull();
    expect(invoice.payment).toEqual({ method: 'card', status: 'paid', amountPaidCents: 140_780 });
  });

  it("when an invoice is issued, it carries the register's number and the issue date, and the sale's own date beside", () => {
    const invoice = invoiceData(aSale({ _id: 1234, orderedAt: '2026-12-31T23:30:00Z', orderDate: '2027-01-01' }), anIssue, invoiceOptions());
    expect(invoice.number).toBe('FA-2026-1');
    expect(invoice.date).toBe('2026-10-05');
    expect(invoice.issuedAt).toBe('2026-10-05T08:00:00.000Z');
    expect(invoice.orderDate).toBe('2027-01-01');
  });

  it('when the order has no billing address, the shipping address is billed', () => {
    const sale = aSale();
    expect(invoiceData(sale, anIssue, invoiceOptions()).billingAddress).toEqual(sale.shippingAddress);
    const billing = { ...sale.shippingAddress, company: 'Atelier Martin', street: ['3 place Bellecour'], postcode: '69002' };
    const invoice = invoiceData(aSale({ billingAddress: billing }), anIssue, invoiceOptions());
    expect(invoice.billingAddress).toEqual(billing);
    expect(invoice.shippingAddress).toEqual(sale.shippingAddress);
  });

  it('when the seller is the demo identity, the invoice records it as such', () => {
    expect(invoiceData(aSale(), anIssue, invoiceOptions()).seller).toEqual({ ...demoSeller, demo: true });
  });

  it('when the catalogue gives a product no rate, it is invoiced at the standard 20 %', () => {
    const invoice = invoiceData(aSale(), anIssue, invoiceOptions({ vatRates: new Map([['TAB-NORD-180', 1000]]) }));
    expect(invoice.lines.map((line) => [line.sku, line.rate])).toEqual([
      ['CAN-OSLO-3P-GRY', 2000],
      ['TAB-NORD-180', 1000],
      ['LAMP-ARC-BLK', 2000],
    ]);
  });

  it('when a line was cancelled, it is listed as cancelled, left out of the totals, and its refund is listed with local dates', () => {
    const invoice = invoiceData(aSaleWithCancelledLamp(), anIssue, invoiceOptions());
    expect(invoice.lines.map((line) => [line.sku, line.cancelled])).toEqual([
      ['CAN-OSLO-3P-GRY', false],
      ['TAB-NORD-180', false],
      ['LAMP-ARC-BLK', true],
    ]);
    expect(invoice.totals).toEqual({ htCents: 95_667, vatCents: 19_133, ttcCents: 114_800 });
    // Cancelled at 22:30 UTC on the 4th: the 5th in Paris.
    expect(invoice.refunds).toEqual([
      {
        refundId: 7,
        amountCents: 25_980,
        reason: 'Annulation client',
        status: 'paid',
        requestedOn: '2026-10-05',
        paidOn: '2026-10-06',
        skus: ['LAMP-ARC-BLK'],
      },
    ]);
    expect(invoice.cancelledOn).toBeNull();
  });

  it('when the whole sale was cancelled, nothing but the shipping fee is invoiced and the cancellation is dated', () => {
    const sale = aSale();
    const cancelled = aSale({
      status: 'cancelled',
      cancelledAt,
      shippingAmount: 19.9,
      products: sale.products.map((product) => ({ ...product, state: 'cancelled' as const, cancelledAt })),
    });
    const invoice = invoiceData(cancelled, anIssue, invoiceOptions());
    expect(invoice.lines.every((line) => line.cancelled)).toBe(true);
    expect(invoice.totals).toEqual({ htCents: 1_658, vatCents: 332, ttcCents: 1_990 });
    expect(invoice.cancelledOn).toBe('2026-10-05');
  });

  it("when there is a shipping fee, it is taxed at the goods' rate and counted in the totals", () => {
    const invoice = invoiceData({ ...aSaleWithCancelledLamp(), shippingAmount: 49.9 }, anIssue, invoiceOptions());
    expect(invoice.shipping).toEqual({ ttcCents: 4_990, parts: [{ ttcCents: 4_990, rate: 2000 }] });
    expect(invoice.vat).toEqual([{ rate: 2000, htCents: 99_825, vatCents: 19_965, ttcCents: 119_790 }]);
    expect(invoice.totals.ttcCents).toBe(114_800 + 4_990);
  });

  it('when products have several rates, each rate has its VAT line, the fee is spread over them, and the totals add up to the cent', () => {
    const invoice = invoiceData({ ...aSale(), shippingAmount: 49.9 }, anIssue, invoiceOptions({ vatRates: new Map([['LAMP-ARC-BLK', 550]]) }));
    expect(invoice.lines.map((line) => line.rate)).toEqual([2000, 2000, 550]);
    // The fee over 1 148,00 € at 20 % and 259,80 € at 5,5 %: 40,69 € and 9,21 €.
    expect(invoice.shipping?.parts).toEqual([
      { ttcCents: 921, rate: 550 },
      { ttcCents: 4_069, rate: 2000 },
    ]);
    expect(invoice.vat).toEqual([
      { rate: 550, htCents: 25_499, vatCents: 1_402, ttcCents: 26_901 },
      { rate: 2000, htCents: 99_058, vatCents: 19_811, ttcCents: 118_869 },
    ]);
    expect(invoice.totals).toEqual({ htCents: 124_557, vatCents: 21_213, ttcCents: 145_770 });
  });

  it('when the order carries no payment, the invoice has none', () => {
    expect(invoiceData(aSale({ payment: null }), anIssue, invoiceOptions()).payment).toBeNull();
    expect(invoiceData(aSale({ payment: { method: 'transfer', status: 'pending', amountPaid: null } }), anIssue, invoiceOptions()).payment).toEqual({
      method: 'transfer',
      status: 'pending',
      amountPaidCents: null,
    });
  });

  it('when 2,000 orders of random lines at the four French rates are invoiced, base plus VAT is the amount to the cent, rate by rate and overall', () => {
    for (const { invoice, shippingAmount } of randomInvoices(42, 2_000)) {
      for (const line of invoice.vat) expect(line.htCents + line.vatCents).toBe(line.ttcCents);
      expect(invoice.totals.htCents + invoice.totals.vatCents).toBe(invoice.totals.ttcCents);
      expect(invoice.totals.ttcCents).toBe(invoice.lines.reduce((sum, line) => sum + line.totalCents, 0) + Math.round(shippingAmount * 100));
    }
  });
});
