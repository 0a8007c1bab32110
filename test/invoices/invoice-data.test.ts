import { describe, expect, it } from 'vitest';
import { invoiceData, invoiceNumber } from '../../src/invoices/invoice-data.ts';
import { invoiceSeller } from '../../src/invoices/seller.ts';
import { aSale, aSaleWithCancelledLamp, cancelledAt } from './invoice-fixtures.ts';

const timezone = 'Europe/Paris';

describe('the data of an invoice', () => {
  it("when a sale is paid in full, every line is invoiced at 20 % and the totals are the order's", () => {
    const invoice = invoiceData(aSale(), { timezone });
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
      },
    ]);
    expect(invoice.vat).toEqual([{ rate: 2000, htCents: 117_317, vatCents: 23_463, ttcCents: 140_780 }]);
    expect(invoice.totals).toEqual({ htCents: 117_317, vatCents: 23_463, ttcCents: 140_780 });
    expect(invoice.shipping).toBeNull();
    expect(invoice.payment).toEqual({ method: 'card', status: 'paid', amountPaidCents: 140_780 });
  });

  it("when an invoice is made, its number comes from the order year and the sale ID, and its date is the order's local date", () => {
    const invoice = invoiceData(aSale({ _id: 1234, orderedAt: '2026-12-31T23:30:00Z', orderDate: '2027-01-01' }), { timezone });
    expect(invoice.number).toBe('FA-2027-00001234');
    expect(invoice.date).toBe('2027-01-01');
    expect(invoice.orderedAt).toBe('2026-12-31T23:30:00Z');
    expect(invoiceNumber({ _id: 123_456_789, orderDate: '2026-10-02' })).toBe('FA-2026-123456789');
  });

  it('when the order has no billing address, the shipping address is billed', () => {
    const sale = aSale();
    expect(invoiceData(sale, { timezone }).billingAddress).toEqual(sale.shippingAddress);
    const billing = { ...sale.shippingAddress, company: 'Atelier Martin', street: ['3 place Bellecour'], postcode: '69002' };
    const invoice = invoiceData(aSale({ billingAddress: billing }), { timezone });
    expect(invoice.billingAddress).toEqual(billing);
    expect(invoice.shippingAddress).toEqual(sale.shippingAddress);
  });

  it('when no seller is given, the retailer issues the invoice', () => {
    expect(invoiceData(aSale(), { timezone }).seller).toEqual(invoiceSeller);
  });

  it('when a line was cancelled, it is listed as cancelled, left out of the totals, and its refund is listed with local dates', () => {
    const invoice = invoiceData(aSaleWithCancelledLamp(), { timezone });
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
    const invoice = invoiceData(cancelled, { timezone });
    expect(invoice.lines.every((line) => line.cancelled)).toBe(true);
    expect(invoice.totals).toEqual({ htCents: 1_658, vatCents: 332, ttcCents: 1_990 });
    expect(invoice.cancelledOn).toBe('2026-10-05');
  });

  it("when there is a shipping fee, it is taxed at the goods' rate and counted in the totals", () => {
    const invoice = invoiceData({ ...aSaleWithCancelledLamp(), shippingAmount: 49.9 }, { timezone });
    expect(invoice.shipping).toEqual({ ttcCents: 4_990, parts: [{ ttcCents: 4_990, rate: 2000 }] });
    expect(invoice.vat).toEqual([{ rate: 2000, htCents: 99_825, vatCents: 19_965, ttcCents: 119_790 }]);
    expect(invoice.totals.ttcCents).toBe(114_800 + 4_990);
  });

  it('when products have several rates, each rate has its VAT line, the fee is spread over them, and the totals add up to the cent', () => {
    const invoice = invoiceData({ ...aSale(), shippingAmount: 49.9 }, { timezone, vatRateOf: (product) => (product.sku === 'LAMP-ARC-BLK' ? 550 : 2000) });
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
    expect(invoiceData(aSale({ payment: null }), { timezone }).payment).toBeNull();
    expect(invoiceData(aSale({ payment: { method: 'transfer', status: 'pending', amountPaid: null } }), { timezone }).payment).toEqual({
      method: 'transfer',
      status: 'pending',
      amountPaidCents: null,
    });
  });
});
