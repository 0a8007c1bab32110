import { savsCollection, type SavDocument } from '../../projections/after-sales/sav-document.ts';
import type { SaleDocument } from '../../projections/sales/sale-document.ts';
import { supplierLinesCollection, type SupplierLineDocument } from '../../projections/supplier-lines/supplier-line-document.ts';
import { findIssuedForSales } from '../../projections/invoicing/queries.ts';
import { SavRef } from '../after-sales/sav-type.ts';
import { IssuedDocumentRef } from '../invoicing/issued-document-type.ts';
import { builder } from '../builder.ts';
import { SaleLogEntryRef } from '../sale-log/sale-log-entry-type.ts';
import { saleLogOf } from '../sale-log/sale-log.ts';
import { SupplierLineRef } from '../supplier-lines/supplier-line-type.ts';
import {
  AddressRef,
  BusinessCustomerRef,
  CustomerRef,
  DeliveryAppointmentRef,
  DeliveryServiceAppointmentRef,
  RefundRef,
  SaleProductRef,
  SaleStatusEnum,
} from './sale-parts.ts';

/**
 * A sale as the `sales` read model holds it. Its supplier lines and SAVs live in other read models:
 * each is loaded for every sale of the response in one read (a DataLoader per request). Its log is
 * read from its streams.
 */
export const SaleRef = builder.objectRef<SaleDocument>('Sale').implement({
  fields: (t) => ({
    saleId: t.exposeInt('_id'),
    incrementId: t.exposeString('incrementId'),
    status: t.expose('status', { type: SaleStatusEnum }),
    source: t.exposeString('source'),
    orderedAt: t.expose('orderedAt', { type: 'DateTime' }),
    orderDate: t.expose('orderDate', { type: 'LocalDate', description: "The order's local date in the planning time zone." }),
    currency: t.exposeString('currency'),
    customer: t.expose('customer', { type: CustomerRef }),
    businessCustomer: t.field({
      type: BusinessCustomerRef,
      nullable: true,
      description: 'The company the customer buys for; null for a consumer sale.',
      resolve: (sale) => sale.businessCustomer ?? null,
    }),
    shippingAddress: t.expose('shippingAddress', { type: AddressRef }),
    billingAddress: t.expose('billingAddress', { type: AddressRef, nullable: true }),
    paymentMethod: t.string({ nullable: true, resolve: (sale) => sale.payment?.method ?? null }),
    paymentStatus: t.string({ nullable: true, resolve: (sale) => sale.payment?.status ?? null }),
    shippingAmount: t.exposeFloat('shippingAmount'),
    grandTotal: t.exposeFloat('grandTotal'),
    products: t.expose('products', { type: [SaleProductRef] }),
    refunds: t.expose('refunds', { type: [RefundRef] }),
    deliveryAppointment: t.expose('deliveryAppointment', { type: DeliveryAppointmentRef, nullable: true }),
    deliveryServiceAppointment: t.expose('deliveryServiceAppointment', { type: DeliveryServiceAppointmentRef, nullable: true }),
    importedAt: t.expose('importedAt', { type: 'DateTime' }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    supplierLines: t.loadableGroup({
      type: SupplierLineRef,
      load: (saleIds: number[], { runtime }) =>
        runtime.readStore
          .collection<SupplierLineDocument>(supplierLinesCollection)
          .find({ saleId: { $in: saleIds } }, { sort: { saleProductId: 1 } })
          .toArray(),
      group: (line) => line.saleId,
      resolve: (sale) => sale._id,
    }),
    savs: t.loadableGroup({
      type: SavRef,
      load: (saleIds: number[], { runtime }) =>
        runtime.readStore
          .collection<SavDocument>(savsCollection)
          .find({ saleId: { $in: saleIds } }, { sort: { _id: 1 } })
          .toArray(),
      group: (sav) => sav.saleId,
      resolve: (sale) => sale._id,
    }),
    log: t.field({
      type: [SaleLogEntryRef],
      description: 'Every event of the sale and of its SAVs, in log order.',
      // Read from the sale's streams, which the sale document names (sale-log.ts): no read model to batch.
      resolve: (sale, _args, { runtime }) => saleLogOf(runtime.eventStore, sale),
    }),
    invoice: t.loadable({
      type: IssuedDocumentRef,
      nullable: true,
      description: 'Its invoice; null until it is issued.',
      load: async (saleIds: number[], { runtime }) => {
        const bySale = new Map((await findIssuedForSales(runtime.readStore, saleIds, 'invoice')).map((invoice) => [invoice.saleId, invoice]));
        return saleIds.map((saleId) => bySale.get(saleId) ?? null);
      },
      resolve: (sale) => sale._id,
    }),
    creditNotes: t.loadableGroup({
      type: IssuedDocumentRef,
      description: 'Its credit notes, in the order they were issued.',
      load: (saleIds: number[], { runtime }) => findIssuedForSales(runtime.readStore, saleIds, 'credit-note'),
      group: (document) => document.saleId,
      resolve: (sale) => sale._id,
    }),
  }),
});
