import type { ProductFields } from '../../../src/events/catalog/events.ts';
import { invoiceData } from '../../../src/invoicing/invoice-data.ts';
import { aProduct, aSale, invoiceOptions } from '../../invoicing/invoice-fixtures.ts';
import type { EventLog } from './event-log.ts';
import { saleImported } from './sale-fixtures.ts';
import type { SaleProduct } from '../../../src/events/sales/events.ts';

/**
 * The part of the scenario the 2026 reform reads: a book at 5.5 % and a fitting service (catalogued at
 * 20 %, then 10 %); a consumer sale of both, imported at 00:30 in Paris on 16 March (23:30 UTC on the
 * 15th), its fitting cancelled on the 17th; a business sale shipped and cancelled line by line, then
 * invoiced; another, just imported, awaiting its invoice.
 */

export const reformSales = { consumer: 103, settled: 104, awaiting: 105 } as const;

const company = { companyName: 'Atelier Martin SARL', siren: '443061841', siret: '44306184100013', vatNumber: 'FR64443061841' };

const catalogued = (sku: string, vatRate: ProductFields['vat_rate'], category: ProductFields['operation_category']): ProductFields => ({
  sku,
  ean14: null,
  name: sku,
  description: null,
  price: 10,
  wholesale_price: null,
  availability: null,
  stock_qty: null,
  images: [],
  supplier: null,
  carrier: null,
  weight_kg: null,
  package_count: null,
  vat_rate: vatRate,
  operation_category: category,
});

const line = (saleProductId: number, sku: string, qty: number, price: number): SaleProduct => ({
  saleProductId,
  sku,
  name: sku,
  qty,
  price,
  wholesalePrice: null,
  supplier: null,
  carrier: null,
  requiresAppointment: false,
});

export const recordReformSales = (log: EventLog): void => {
  log.record('product-BOOK-DECO', {
    type: 'ProductCatalogued',
    data: { product: catalogued('BOOK-DECO', 5.5, 'goods'), cataloguedAt: '2025-03-01T00:00:00Z' },
  });
  log.record('product-FIT', { type: 'ProductCatalogued', data: { product: catalogued('FIT', 20, 'services'), cataloguedAt: '2025-03-01T00:00:00Z' } });
  log.record('product-FIT', { type: 'ProductUpdated', data: { sku: 'FIT', changes: { vat_rate: 10 }, updatedAt: '2025-03-02T00:00:00Z' } });

  const consumer = reformSales.consumer;
  saleImported(log, {
    saleId: consumer,
    incrementId: '100000103',
    orderedAt: '2025-03-15T23:20:00Z',
    importedAt: '2025-03-15T23:30:00Z',
    email: 'jean.dupont@example.fr',
    products: [line(1031, 'BOOK-DECO', 2, 25), line(1032, 'FIT', 1, 80)],
  });
  log.record('sale-100000103', {
    type: 'SaleProductCancelled',
    data: { saleId: consumer, saleProductId: 1032, reason: 'no longer wanted', cancelledAt: '2025-03-17T10:00:00+01:00' },
  });

  const settled = reformSales.settled;
  saleImported(log, {
    saleId: settled,
    incrementId: '100000104',
    orderedAt: '2025-03-18T09:00:00+01:00',
    importedAt: '2025-03-18T10:00:00+01:00',
    email: 'atelier@example.fr',
    businessCustomer: company,
    products: [line(1041, 'BOOK-DECO', 1, 25), line(1042, 'FIT', 1, 80)],
  });
  log.record('sale-100000104', {
    type: 'SaleProductShipped',
    data: { saleId: settled, saleProductId: 1041, supplier: null, preparedAt: '2025-03-19T10:00:00+01:00', logUser: 'cron' },
  });
  log.record('sale-100000104', {
    type: 'SaleProductCancelled',
    data: { saleId: settled, saleProductId: 1042, reason: 'no longer wanted', cancelledAt: '2025-03-19T11:00:00+01:00' },
  });
  const issue = { number: 'FA-2025-2', issuedAt: '2025-03-19T12:00:00Z', issuedOn: '2025-03-19' };
  const products = [
    aProduct({ saleProductId: 1041, sku: 'BOOK-DECO', price: 25, state: 'shipped' }),
    aProduct({ saleProductId: 1042, sku: 'FIT', price: 80, state: 'cancelled', cancelledAt: '2025-03-19T10:00:00.000Z' }),
  ];
  const invoice = invoiceData(
    aSale({ _id: settled, incrementId: '100000104', businessCustomer: company, products, shippingAmount: 14 }),
    issue,
    invoiceOptions(),
  );
  log.record('invoices-2025', {
    type: 'InvoiceIssued',
    data: { number: issue.number, year: 2025, sequence: 2, saleId: settled, issuedAt: issue.issuedAt, invoice },
  });

  saleImported(log, {
    saleId: reformSales.awaiting,
    incrementId: '100000105',
    orderedAt: '2025-03-20T09:00:00+01:00',
    importedAt: '2025-03-20T10:00:00+01:00',
    email: 'atelier@example.fr',
    businessCustomer: company,
    products: [line(1051, 'BOOK-DECO', 1, 25)],
  });
};
