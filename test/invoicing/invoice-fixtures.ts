import { demoSeller } from '../../src/config/seller-settings.ts';
import { invoiceData, type InvoiceData, type InvoiceOptions } from '../../src/invoicing/invoice-data.ts';
import type { SaleDocument, SaleProductDocument } from '../../src/projections/sales/sale-document.ts';

/** Sales as the `sales` read model holds them, for the invoice specs. */

export const aProduct = (overrides: Partial<SaleProductDocument> & Pick<SaleProductDocument, 'saleProductId' | 'sku'>): SaleProductDocument => ({
  name: `Article ${overrides.sku}`,
  qty: 1,
  price: 100,
  wholesalePrice: null,
  supplier: null,
  carrier: null,
  requiresAppointment: false,
  state: 'pending',
  acknowledgedAt: null,
  preparedAt: null,
  cancelledAt: null,
  trackingNumber: null,
  labelPath: null,
  refusal: null,
  supplierTracking: null,
  ...overrides,
});

export const cancelledAt = '2026-10-04T22:30:00.000Z';

/** The example order of the contract (three lines, paid by card, no shipping fee), as sale 42. */
export const aSale = (overrides: Partial<SaleDocument> = {}): SaleDocument => ({
  _id: 42,
  _position: 10,
  incrementId: '100004512',
  status: 'processing',
  source: 'shopping-api',
  orderedAt: '2026-10-02T09:14:00+02:00',
  orderDate: '2026-10-02',
  currency: 'EUR',
  customer: { email: 'claire.martin@example.org', emailLower: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin', phone: '+33612345678' },
  shippingAddress: {
    firstname: 'Claire',
    lastname: 'Martin',
    street: ['12 rue des Lilas', 'Bâtiment B'],
    postcode: '69003',
    city: 'Lyon',
    country_id: 'FR',
    telephone: '+33612345678',
  },
  billingAddress: null,
  payment: { method: 'card', status: 'paid', amountPaid: 1407.8 },
  shippingAmount: 0,
  grandTotal: 1407.8,
  products: [
    aProduct({ saleProductId: 101, sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', price: 649 }),
    aProduct({ saleProductId: 102, sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', price: 499 }),
    aProduct({ saleProductId: 103, sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty: 2, price: 129.9 }),
  ],
  refunds: [],
  deliveryAppointment: null,
  deliveryServiceAppointment: null,
  savIds: [],
  erasureKeyId: null,
  importedAt: '2026-10-02T07:15:00.000Z',
  cancelledAt: null,
  updatedAt: '2026-10-02T07:15:00.000Z',
  ...overrides,
});

/** The sale with its lamp cancelled and refunded (refund requested, then paid). */
export const aSaleWithCancelledLamp = (): SaleDocument => {
  const sale = aSale();
  return {
    ...sale,
    products: sale.products.map((product) => (product.sku === 'LAMP-ARC-BLK' ? { ...product, state: 'cancelled', cancelledAt } : product)),
    refunds: [
      {
        refundId: 7,
        amount: 259.8,
        currency: 'EUR',
        reason: 'Annulation client',
        saleProductIds: [103],
        status: 'paid',
        requestedAt: cancelledAt,
        paidAt: '2026-10-06T10:00:00.000Z',
      },
    ],
  };
};

/** The issue of an invoice: its number and when it was issued (the 5th, 10:00 in Paris). */
export const anIssue = { number: 'FA-2026-1', issuedAt: '2026-10-05T08:00:00.000Z', issuedOn: '2026-10-05' };

export const invoiceOptions = (overrides: Partial<InvoiceOptions> = {}): InvoiceOptions => ({ timezone: 'Europe/Paris', seller: demoSeller, ...overrides });

/**
 * `count` sales of 1 to 6 random lines (1 to 4 units, up to 2,500 €) at the four French rates, with a
 * delivery fee two times in three, invoiced; the same ones for the same seed.
 */
export const randomInvoices = (seed: number, count: number): { invoice: InvoiceData; shippingAmount: number }[] => {
  let state = seed;
  const random = (below: number): number => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % below;
  };
  const rates = [2000, 1000, 550, 210] as const;
  return Array.from({ length: count }, () => {
    const products = Array.from({ length: 1 + random(6) }, (_, index) =>
      aProduct({ saleProductId: index + 1, sku: `SKU-${index + 1}`, qty: 1 + random(4), price: (1 + random(250_000)) / 100 }),
    );
    const vatRates = new Map(products.map((product) => [product.sku, rates[random(rates.length)]!]));
    const shippingAmount = random(3) === 0 ? 0 : random(10_000) / 100;
    return { invoice: invoiceData(aSale({ products, shippingAmount }), anIssue, invoiceOptions({ vatRates })), shippingAmount };
  });
};
