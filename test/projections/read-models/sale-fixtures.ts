import type { Address, BusinessCustomer } from '../../../src/events/schema/common-schemas.ts';
import type { SaleProduct } from '../../../src/events/sales/events.ts';
import type { EventLog } from './event-log.ts';

/** Sales as the shop sends them: a sofa drop-shipped by supplier-a, a fridge by supplier-b, a cushion from own stock. */

export const address = (street: string): Address => ({
  firstname: 'Marie',
  lastname: 'Curie',
  street: [street],
  postcode: '75005',
  city: 'Paris',
  country_id: 'FR',
  telephone: '0102030405',
});

export const sofa: SaleProduct = {
  saleProductId: 1001,
  sku: 'SOFA-3P',
  name: 'Canapé 3 places',
  qty: 1,
  price: 899,
  wholesalePrice: 400,
  supplier: 'supplier-a',
  carrier: 'geodis',
  requiresAppointment: true,
};
export const fridge: SaleProduct = {
  saleProductId: 1002,
  sku: 'FRIDGE-A',
  name: 'Réfrigérateur',
  qty: 2,
  price: 450.5,
  wholesalePrice: null,
  supplier: 'supplier-b',
  carrier: 'dpd',
  requiresAppointment: false,
};
export const cushion: SaleProduct = {
  saleProductId: 1003,
  sku: 'CUSHION',
  name: 'Coussin',
  qty: 4,
  price: 15,
  wholesalePrice: 5,
  supplier: null,
  carrier: null,
  requiresAppointment: false,
};

export const saleImported = (
  log: EventLog,
  sale: {
    saleId: number;
    incrementId: string;
    orderedAt: string;
    products: SaleProduct[];
    email?: string;
    lastname?: string;
    importedAt?: string;
    businessCustomer?: BusinessCustomer;
    shippingAmount?: number;
  },
) =>
  log.record(`sale-${sale.incrementId}`, {
    type: 'SaleImported',
    data: {
      saleId: sale.saleId,
      incrementId: sale.incrementId,
      source: 'shop',
      orderedAt: sale.orderedAt,
      currency: 'EUR',
      customer: { email: sale.email ?? 'Marie.Curie@Example.fr', firstname: 'Marie', lastname: sale.lastname ?? 'Curie', phone: '0102030405' },
      ...(sale.businessCustomer && { businessCustomer: sale.businessCustomer }),
      shippingAddress: address('1 rue Pierre et Marie Curie'),
      billingAddress: null,
      products: sale.products,
      payment: { method: 'card', status: 'paid', amountPaid: 1815 },
      shippingAmount: sale.shippingAmount ?? 14,
      grandTotal: 1815,
      importedAt: sale.importedAt ?? '2025-03-10T08:00:00+01:00',
    },
  });
