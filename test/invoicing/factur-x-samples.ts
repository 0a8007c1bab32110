import { demoSeller } from '../../src/config/seller-settings.ts';
import { creditNoteData, linesToCredit } from '../../src/invoicing/credit-note-data.ts';
import { invoiceData } from '../../src/invoicing/invoice-data.ts';
import { renderCreditNotePdf, renderInvoicePdf } from '../../src/invoicing/render-invoice.ts';
import { aProduct, aSale, anIssue, cancelledAt, invoiceOptions } from './invoice-fixtures.ts';

/** After the invoice (the 5th): what its credit notes credit. */
const cancelledSince = '2026-10-07T09:00:00.000Z';

/**
 * The Factur-X documents the validators' specs read: the four French VAT rates with a shipping fee
 * spread over them, a business buyer (SIRET, VAT number) delivered elsewhere than billed, a consumer
 * with a line cancelled before invoicing, a payment still pending and characters in the name the font
 * lacks, and a credit note for each; the invoice of a sale cancelled whole before it was invoiced; the
 * operation's three categories (goods B1, goods and services M1 with VAT on debits, services S1).
 */

export type Sample = { name: string; kind: 'invoice' | 'credit-note'; pdf: Buffer };

const business = { companyName: 'Atelier Martin SARL', siren: '841250004', siret: '84125000400014', vatNumber: 'FR47841250004' };

const billedElsewhere = {
  firstname: 'Claire',
  lastname: 'Martin',
  company: 'Atelier Martin SARL',
  street: ['3 place Bellecour', 'Service comptabilité'],
  postcode: '69002',
  city: 'Lyon',
  country_id: 'FR',
};

const fourRates = [
  aProduct({ saleProductId: 201, sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', price: 649 }),
  aProduct({ saleProductId: 202, sku: 'POSE-CUISINE', name: 'Pose de cuisine (travaux de rénovation)', price: 389.9 }),
  aProduct({ saleProductId: 203, sku: 'LIV-DECO-INT', name: 'Livre « Intérieurs scandinaves »', qty: 3, price: 34.9 }),
  aProduct({ saleProductId: 204, sku: 'MAG-MAISON-12', name: 'Magazine Maison & Jardin n° 12', qty: 7, price: 6.9 }),
  aProduct({ saleProductId: 205, sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty: 2, price: 129.9 }),
];
const rates = new Map([
  ['CAN-OSLO-3P-GRY', 2000],
  ['POSE-CUISINE', 1000],
  ['LIV-DECO-INT', 550],
  ['MAG-MAISON-12', 210],
  ['LAMP-ARC-BLK', 2000],
]);
const fourRatesTotal = 649 + 389.9 + 3 * 34.9 + 7 * 6.9 + 2 * 129.9 + 59.9;

const creditIssue = { number: 'AV-2026-1', issuedAt: '2026-10-08T08:00:00.000Z', issuedOn: '2026-10-08' };

const render = async (): Promise<Sample[]> => {
  const businessSale = aSale({
    _id: 51,
    incrementId: '100004700',
    businessCustomer: business,
    billingAddress: billedElsewhere,
    shippingAmount: 59.9,
    products: fourRates,
    payment: { method: 'bank_transfer', status: 'paid', amountPaid: Math.round(fourRatesTotal * 100) / 100 },
  });
  // The kitchen fitting is a service: the invoice is of goods and services (M1), and the seller pays VAT on debits.
  const businessInvoice = invoiceData(
    businessSale,
    { ...anIssue, number: 'FA-2026-11' },
    invoiceOptions({ vatRates: rates, operationCategories: new Map([['POSE-CUISINE', 'services']]), seller: { ...demoSeller, vatOnDebits: true } }),
  );
  const laterCancelled = {
    products: businessSale.products.map((product) =>
      ['LAMP-ARC-BLK', 'MAG-MAISON-12'].includes(product.sku) ? { ...product, state: 'cancelled' as const, cancelledAt: cancelledSince } : product,
    ),
  };
  const businessCredit = creditNoteData(
    businessInvoice,
    linesToCredit(businessInvoice, laterCancelled, [], 'Europe/Paris'),
    creditIssue,
    businessInvoice.seller,
  );

  const consumerSale = aSale({
    // Characters the font has no glyph for, which PDF/A must not show as .notdef.
    shippingAddress: { ...aSale().shippingAddress, lastname: 'Martin 🛋\u0007' },
    payment: { method: 'card', status: 'pending', amountPaid: null },
    shippingAmount: 49.9,
    products: [
      ...aSale().products,
      aProduct({ saleProductId: 104, sku: 'LIV-DECO-INT', name: 'Livre « Intérieurs scandinaves »', price: 34.9 }),
      aProduct({ saleProductId: 105, sku: 'COUSSIN-LIN', name: 'Coussin lin', qty: 3, price: 24.99, state: 'cancelled', cancelledAt }),
    ],
  });
  const consumerInvoice = invoiceData(consumerSale, anIssue, invoiceOptions({ vatRates: new Map([['LIV-DECO-INT', 550]]) }));
  const consumerCredit = creditNoteData(
    consumerInvoice,
    linesToCredit(
      consumerInvoice,
      {
        products: consumerSale.products.map((product) =>
          product.sku === 'TAB-NORD-180' ? { ...product, state: 'cancelled' as const, cancelledAt: cancelledSince } : product,
        ),
      },
      [],
      'Europe/Paris',
    ),
    { ...creditIssue, number: 'AV-2026-2' },
    consumerInvoice.seller,
  );

  // Cancelled whole before it was invoiced, with no fee: nothing invoiced, every line listed at quantity 0.
  const cancelledSale = aSale({ _id: 43, incrementId: '100004513', cancelledAt, payment: null });
  const cancelledInvoice = invoiceData(
    { ...cancelledSale, products: cancelledSale.products.map((product) => ({ ...product, state: 'cancelled' as const, cancelledAt })) },
    { ...anIssue, number: 'FA-2026-12' },
    invoiceOptions(),
  );

  // Services only (S1): a fitting and its travel, to a business.
  const servicesSale = aSale({
    _id: 52,
    incrementId: '100004701',
    businessCustomer: business,
    shippingAmount: 0,
    products: [
      aProduct({ saleProductId: 211, sku: 'POSE-CUISINE', name: 'Pose de cuisine (travaux de rénovation)', price: 389.9 }),
      aProduct({ saleProductId: 212, sku: 'DEPLACEMENT', name: 'Déplacement du poseur', price: 45 }),
    ],
  });
  const servicesInvoice = invoiceData(
    servicesSale,
    { ...anIssue, number: 'FA-2026-13' },
    invoiceOptions({
      vatRates: new Map([['POSE-CUISINE', 1000]]),
      operationCategories: new Map([
        ['POSE-CUISINE', 'services'],
        ['DEPLACEMENT', 'services'],
      ]),
    }),
  );

  return [
    { name: 'business-invoice', kind: 'invoice', pdf: await renderInvoicePdf(businessInvoice) },
    { name: 'business-credit-note', kind: 'credit-note', pdf: await renderCreditNotePdf(businessCredit) },
    { name: 'consumer-invoice', kind: 'invoice', pdf: await renderInvoicePdf(consumerInvoice) },
    { name: 'consumer-credit-note', kind: 'credit-note', pdf: await renderCreditNotePdf(consumerCredit) },
    { name: 'cancelled-sale-invoice', kind: 'invoice', pdf: await renderInvoicePdf(cancelledInvoice) },
    { name: 'services-invoice', kind: 'invoice', pdf: await renderInvoicePdf(servicesInvoice) },
  ];
};

let rendered: Promise<Sample[]> | undefined;

/** Rendered once per worker: the specs that read them share them. */
export const renderSamples = (): Promise<Sample[]> => (rendered ??= render());
