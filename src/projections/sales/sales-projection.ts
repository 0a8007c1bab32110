import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import type { SaleProduct } from '../../events/sales/events.ts';
import { serviceOrderId } from '../../events/sales/service-order-id.ts';
import { labelPathFor } from '../../files/label-path.ts';
import { addressFields, erasedAt } from '../../events/schema/personal-data.ts';
import { isCustomerErased } from '../erasure.ts';
import { evolveOnce, type Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import { localDateIn } from '../../time/local-dates.ts';
import { productState, saleStatus, salesCollection, type SaleDocument, type SaleProductDocument } from './sale-document.ts';

const eventTypes = [
  'SaleImported',
  'SaleAddressUpdated',
  'SaleProductAcknowledged',
  'SaleProductShipped',
  'SaleProductCancelled',
  'SaleCancelled',
  'RefundRequested',
  'RefundPaid',
  'SaleDeliveryAppointmentScheduled',
  'DeliveryServiceAppointmentSaved',
  'TrackingNumberAllocated',
  'ShippingLabelCreated',
  'SupplierLineRefused',
  'SupplierLineHandedOver',
  'SavCreated',
] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

type Sale = Omit<SaleDocument, '_id' | '_position'>;

/** The fields of a sale copied from sealed fields of its events (and the e-mail's lookup form). */
const personalFields = [
  'customer.email',
  'customer.emailLower',
  'customer.firstname',
  'customer.lastname',
  'customer.phone',
  'businessCustomer.companyName',
  ...addressFields('shippingAddress'),
  ...addressFields('billingAddress'),
];

/*
 * Each new version is an object literal, or a spread of the previous one whose existing fields are then
 * set: V8 keeps those fast objects, where one grown field by field turns slow to copy and serialise,
 * and a replay builds hundreds of thousands of them.
 */

const importedProduct = (product: SaleProduct): SaleProductDocument => ({
  saleProductId: product.saleProductId,
  sku: product.sku,
  name: product.name,
  qty: product.qty,
  price: product.price,
  wholesalePrice: product.wholesalePrice,
  supplier: product.supplier,
  carrier: product.carrier,
  requiresAppointment: product.requiresAppointment,
  state: 'pending',
  acknowledgedAt: null,
  preparedAt: null,
  cancelledAt: null,
  trackingNumber: null,
  labelPath: null,
  refusal: null,
  supplierTracking: null,
});

const importedSale = ({ data }: StoredEvent<EventOfType<'SaleImported'>>, orderDate: (instant: string) => string): Sale => ({
  incrementId: data.incrementId,
  status: 'processing',
  source: data.source,
  orderedAt: data.orderedAt,
  orderDate: orderDate(data.orderedAt),
  currency: data.currency,
  customer: { ...data.customer, emailLower: data.customer.email.toLowerCase() },
  ...(data.businessCustomer && { businessCustomer: data.businessCustomer }),
  shippingAddress: data.shippingAddress,
  billingAddress: data.billingAddress,
  payment: data.payment,
  shippingAmount: data.shippingAmount,
  grandTotal: data.grandTotal,
  products: data.products.map(importedProduct),
  refunds: [],
  deliveryAppointment: null,
  deliveryServiceAppointment: null,
  savIds: [],
  erasureKeyId: null,
  importedAt: data.importedAt,
  cancelledAt: null,
  updatedAt: data.importedAt,
});

type ProductChange = Partial<
  Pick<
    SaleProductDocument,
    'acknowledgedAt' | 'preparedAt' | 'cancelledAt' | 'trackingNumber' | 'labelPath' | 'carrier' | 'supplier' | 'refusal' | 'supplierTracking'
  >
>;

/** The sale with one product changed (found by its id; products never change order) and the state and status that follow. */
const withProduct = (sale: Sale, saleProductId: number, change: ProductChange, at: string): Sale | null => {
  const index = sale.products.findIndex((product) => product.saleProductId === saleProductId);
  if (index < 0) return null;
  const product = { ...sale.products[index]! };
  for (const [field, value] of Object.entries(change) as [keyof ProductChange, unknown][]) product[field] = value as never;
  product.state = productState(product);
  const products = sale.products.map((current, i) => (i === index ? product : current));
  const next = { ...sale };
  next.products = products;
  next.status = saleStatus(products);
  next.updatedAt = at;
  return next;
};

/** The sale with some of its own fields changed and `updatedAt` set. */
const withFields = (sale: Sale, at: string, set: (next: Sale) => void): Sale => {
  const next = { ...sale };
  set(next);
  next.updatedAt = at;
  return next;
};

/** The next version of a sale after an event; null when there is nothing to change (no such sale, no such product or refund). */
const evolveSale = (sale: Sale | null, event: StoredEvent<Handled>, orderDate: (instant: string) => string): Sale | null => {
  if (event.type === 'SaleImported') return importedSale(event, orderDate);
  if (sale === null) return null;
  switch (event.type) {
    case 'SaleAddressUpdated':
      return withFields(sale, event.data.updatedAt, (next) => (next.shippingAddress = event.data.shippingAddress));
    case 'SaleProductAcknowledged':
      return withProduct(sale, event.data.saleProductId, { acknowledgedAt: event.data.acknowledgedAt }, event.data.acknowledgedAt);
    case 'SaleProductShipped': {
      const { saleProductId, preparedAt, supplierTracking } = event.data;
      return withProduct(sale, saleProductId, { preparedAt, supplierTracking: supplierTracking ?? null }, preparedAt);
    }
    case 'SupplierLineRefused': {
      const { saleProductId, supplier, reason, comment, refusedAt } = event.data;
      return withProduct(sale, saleProductId, { refusal: { supplier, reason, comment, refusedAt } }, refusedAt);
    }
    case 'SupplierLineHandedOver': {
      const { saleProductId, toSupplier, handedOverAt } = event.data;
      // The line's label moves with it: same number, the new supplier's path.
      const product = sale.products.find((candidate) => candidate.saleProductId === saleProductId);
      const labelPath = product?.labelPath ? labelPathFor(toSupplier, serviceOrderId(sale.incrementId, saleProductId)) : null;
      return withProduct(sale, saleProductId, { supplier: toSupplier, acknowledgedAt: null, refusal: null, labelPath }, handedOverAt);
    }
    case 'SaleProductCancelled':
      return withProduct(sale, event.data.saleProductId, { cancelledAt: event.data.cancelledAt }, event.data.cancelledAt);
    case 'TrackingNumberAllocated': {
      const { saleProductId, supplier, trackingNumber, allocatedAt } = event.data;
      // The label is rendered on demand at its fixed path: the path is known with the number.
      const labelPath = labelPathFor(supplier, serviceOrderId(sale.incrementId, saleProductId));
      return withProduct(sale, saleProductId, { trackingNumber, labelPath }, allocatedAt);
    }
    case 'ShippingLabelCreated': {
      const { saleProductId, trackingNumber, labelPath, carrier, createdAt } = event.data;
      // The label names the carrier actually used; a label without one keeps the ordered carrier.
      return withProduct(sale, saleProductId, carrier === null ? { trackingNumber, labelPath } : { trackingNumber, labelPath, carrier }, createdAt);
    }
    case 'SaleCancelled':
      // Its products were cancelled one by one by the events recorded with it; the status follows from them.
      return withFields(sale, event.data.cancelledAt, (next) => (next.cancelledAt = event.data.cancelledAt));
    case 'RefundRequested': {
      const { refundId, amount, currency, reason, saleProductIds, requestedAt } = event.data;
      const refund = { refundId, amount, currency, reason, saleProductIds, status: 'requested' as const, requestedAt, paidAt: null };
      return withFields(sale, requestedAt, (next) => (next.refunds = [...sale.refunds, refund]));
    }
    case 'RefundPaid': {
      const { refundId, paidAt } = event.data;
      const index = sale.refunds.findIndex((refund) => refund.refundId === refundId);
      if (index < 0) return null;
      const paid = { ...sale.refunds[index]!, status: 'paid' as const, paidAt };
      return withFields(sale, paidAt, (next) => (next.refunds = sale.refunds.map((refund, i) => (i === index ? paid : refund))));
    }
    case 'SaleDeliveryAppointmentScheduled': {
      const { planningType, date, time, scheduledAt } = event.data;
      return withFields(sale, scheduledAt, (next) => (next.deliveryAppointment = { planningType, date, time, scheduledAt }));
    }
    case 'DeliveryServiceAppointmentSaved': {
      const { provider, reference, date, timeWindow, savedAt } = event.data;
      return withFields(sale, savedAt, (next) => (next.deliveryServiceAppointment = { provider, reference, date, timeWindow, savedAt }));
    }
    case 'SavCreated': {
      if (sale.savIds.includes(event.data.savId)) return null;
      const next = { ...sale };
      next.savIds = [...sale.savIds, event.data.savId];
      return next;
    }
    default:
      return assertNever(event);
  }
};

/** The `sales` read model: what the sale lookups of the core and chatbot APIs answer from. */
export const salesProjection = (options: { timezone: string }): Projection => {
  const orderDate = localDateIn(options.timezone);
  return {
    name: 'sales',
    // 2: rebuilt from events read with bounded amounts (an old log's 1e308 prices and totals).
    // 3: a line's refusal by its supplier and the supplier's own tracking.
    // 4: the key ID of the customer's erasure, which the sale log reads the erasure by.
    version: 4,
    eventTypes: [...eventTypes, 'CustomerErased'],
    collections: [salesCollection],

    async setup(store: ReadStore) {
      const sales = store.collection<SaleDocument>(salesCollection);
      await sales.createIndex({ incrementId: 1 }, { unique: true });
      await sales.createIndex({ 'customer.emailLower': 1 });
    },

    async apply(stored: StoredEvent, store: ReadStore) {
      const sales = store.collection<SaleDocument>(salesCollection);
      if (isCustomerErased(stored)) {
        for (const { saleId } of stored.data.sales)
          await evolveOnce(sales, saleId, stored.position, (sale) => sale && { ...erasedAt(sale, personalFields), erasureKeyId: stored.data.keyId });
        return;
      }
      if (!handled.has(stored.type)) return;
      const event = stored as StoredEvent<Handled>;
      await evolveOnce(sales, event.data.saleId, event.position, (sale) => evolveSale(sale, event, orderDate));
    },
  };
};
