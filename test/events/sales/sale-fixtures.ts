import type { SaleEvent, SaleProduct } from '../../../src/events/sales/events.ts';
import type { SaleCommand } from '../../../src/events/sales/commands.ts';
import type { Address } from '../../../src/events/schema/common-schemas.ts';

/** Builders of sales for the specs: each sale gets IDs no other sale in the run has. */

export const at = '2026-10-03T08:00:00.000Z';
export const later = '2026-10-04T08:00:00.000Z';

let lastId = 1000;
const nextId = (): number => ++lastId;

export const address = (overrides: Partial<Address> = {}): Address => ({
  firstname: 'Claire',
  lastname: 'Martin',
  street: ['12 rue des Lilas'],
  postcode: '69003',
  city: 'Lyon',
  country_id: 'FR',
  ...overrides,
});

export const product = (overrides: Partial<SaleProduct> = {}): SaleProduct => ({
  saleProductId: nextId(),
  sku: 'CAN-OSLO-3P-GRY',
  name: 'Canapé 3 places Oslo gris',
  qty: 1,
  price: 649,
  wholesalePrice: 400,
  supplier: 'supplier-a',
  carrier: 'Geodis',
  requiresAppointment: false,
  ...overrides,
});

type SaleImportedData = Extract<SaleEvent, { type: 'SaleImported' }>['data'];
export type SaleImportedEvent = Extract<SaleEvent, { type: 'SaleImported' }>;

export const saleImported = (overrides: Partial<SaleImportedData> = {}): SaleImportedEvent => {
  const saleId = nextId();
  return {
    type: 'SaleImported',
    data: {
      saleId,
      incrementId: String(100_000_000 + saleId),
      source: 'shopping-api',
      orderedAt: '2026-10-02T09:14:00+02:00',
      currency: 'EUR',
      customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin', phone: null },
      shippingAddress: address(),
      billingAddress: null,
      products: [product()],
      payment: { method: 'card', status: 'paid', amountPaid: 649 },
      shippingAmount: 0,
      grandTotal: 649,
      importedAt: '2026-10-02T07:15:00.000Z',
      ...overrides,
    },
  };
};

/** The first product of a sale, for specs about a one-product sale. */
export const onlyProduct = (sale: SaleImportedEvent): SaleProduct => {
  const first = sale.data.products[0];
  if (!first) throw new Error('the sale has no product');
  return first;
};

export const shipped = (sale: SaleImportedEvent, line: SaleProduct, preparedAt = at): SaleEvent => ({
  type: 'SaleProductShipped',
  data: { saleId: sale.data.saleId, saleProductId: line.saleProductId, supplier: line.supplier, preparedAt, logUser: 'cron' },
});

export const cancelled = (sale: SaleImportedEvent, line: SaleProduct, reason = 'customer request'): SaleEvent => ({
  type: 'SaleProductCancelled',
  data: { saleId: sale.data.saleId, saleProductId: line.saleProductId, reason, cancelledAt: at },
});

export const refundId = (): number => nextId();

export type Command<T extends SaleCommand['type']> = Extract<SaleCommand, { type: T }>;
