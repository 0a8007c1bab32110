import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/catalogue/catalogue.ts';
import { applyOnce, type Projection } from '../projection.ts';
import type { ReadCollection, ReadStore } from '../read-store/read-store.ts';
import { localDateIn } from './order-date.ts';
import {
  productState,
  saleStatus,
  salesCollection,
  type SaleDocument,
  type SaleProductDocument,
} from './sale-document.ts';

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
  'ShippingLabelCreated',
  'SavCreated',
] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

type Sales = ReadCollection<SaleDocument>;

const importedSale = (event: StoredEvent<EventOfType<'SaleImported'>>, orderDate: (instant: string) => string) => {
  const { saleId: _saleId, products, customer, importedAt, ...sale } = event.data;
  return {
    ...sale,
    status: 'processing' as const,
    orderDate: orderDate(sale.orderedAt),
    customer: { ...customer, emailLower: customer.email.toLowerCase() },
    products: products.map(
      (product): SaleProductDocument => ({
        ...product,
        state: 'pending',
        acknowledgedAt: null,
        preparedAt: null,
        cancelledAt: null,
        trackingNumber: null,
        labelPath: null,
      }),
    ),
    refunds: [],
    deliveryAppointment: null,
    deliveryServiceAppointment: null,
    savIds: [],
    importedAt,
    cancelledAt: null,
    updatedAt: importedAt,
  };
};

/**
 * Sets fields of one product, found by its index (products never change order after the import), and
 * the sale's status, which depends on every product: the document is read first to compute it.
 */
const updateProduct = async (
  sales: Sales,
  event: StoredEvent,
  saleId: number,
  saleProductId: number,
  change: Partial<SaleProductDocument>,
  at: string,
): Promise<void> => {
  const sale = await sales.findOne({ _id: saleId });
  if (!sale || sale._position >= event.position) return;
  const index = sale.products.findIndex((product) => product.saleProductId === saleProductId);
  const current = sale.products[index];
  if (!current) return;
  const next = { ...current, ...change };
  const changed = { ...change, state: productState(next) };
  const products = sale.products.map((product, i) => (i === index ? { ...next, ...changed } : product));
  const $set = Object.fromEntries(Object.entries(changed).map(([field, value]) => [`products.${index}.${field}`, value]));
  await applyOnce(sales, saleId, event.position, { $set: { ...$set, status: saleStatus(products), updatedAt: at } });
};

const markRefundPaid = async (sales: Sales, event: StoredEvent<EventOfType<'RefundPaid'>>): Promise<void> => {
  const { saleId, refundId, paidAt } = event.data;
  const sale = await sales.findOne({ _id: saleId });
  if (!sale || sale._position >= event.position) return;
  const index = sale.refunds.findIndex((refund) => refund.refundId === refundId);
  if (index < 0) return;
  await applyOnce(sales, saleId, event.position, {
    $set: { [`refunds.${index}.status`]: 'paid', [`refunds.${index}.paidAt`]: paidAt, updatedAt: paidAt },
  });
};

/** The `sales` read model: what the sale lookups of the core and chatbot APIs answer from. */
export const salesProjection = (options: { timezone: string }): Projection => {
  const orderDate = localDateIn(options.timezone);
  return {
    name: 'sales',
    version: 1,
    eventTypes,
    collections: [salesCollection],

    async setup(store: ReadStore) {
      const sales = store.collection<SaleDocument>(salesCollection);
      await sales.createIndex({ incrementId: 1 }, { unique: true });
      await sales.createIndex({ 'customer.emailLower': 1 });
    },

    async apply(stored: StoredEvent, store: ReadStore) {
      if (!handled.has(stored.type)) return;
      const event = stored as StoredEvent<Handled>;
      const sales = store.collection<SaleDocument>(salesCollection);
      const { position } = event;
      switch (event.type) {
        case 'SaleImported':
          await applyOnce(sales, event.data.saleId, position, { $set: importedSale(event, orderDate) }, { upsert: true });
          return;
        case 'SaleAddressUpdated':
          await applyOnce(sales, event.data.saleId, position, {
            $set: { shippingAddress: event.data.shippingAddress, updatedAt: event.data.updatedAt },
          });
          return;
        case 'SaleProductAcknowledged': {
          const { saleId, saleProductId, acknowledgedAt } = event.data;
          await updateProduct(sales, event, saleId, saleProductId, { acknowledgedAt }, acknowledgedAt);
          return;
        }
        case 'SaleProductShipped': {
          const { saleId, saleProductId, preparedAt } = event.data;
          await updateProduct(sales, event, saleId, saleProductId, { preparedAt }, preparedAt);
          return;
        }
        case 'SaleProductCancelled': {
          const { saleId, saleProductId, cancelledAt } = event.data;
          await updateProduct(sales, event, saleId, saleProductId, { cancelledAt }, cancelledAt);
          return;
        }
        case 'ShippingLabelCreated': {
          const { saleId, saleProductId, trackingNumber, labelPath, carrier, createdAt } = event.data;
          // The label names the carrier actually used; a label without one keeps the ordered carrier.
          const change = carrier === null ? { trackingNumber, labelPath } : { trackingNumber, labelPath, carrier };
          await updateProduct(sales, event, saleId, saleProductId, change, createdAt);
          return;
        }
        case 'SaleCancelled':
          // Its products were cancelled one by one by the events recorded with it; the status follows from them.
          await applyOnce(sales, event.data.saleId, position, {
            $set: { cancelledAt: event.data.cancelledAt, updatedAt: event.data.cancelledAt },
          });
          return;
        case 'RefundRequested': {
          const { saleId, requestedAt, ...refund } = event.data;
          await applyOnce(sales, saleId, position, {
            $push: { refunds: { ...refund, status: 'requested', requestedAt, paidAt: null } },
            $set: { updatedAt: requestedAt },
          });
          return;
        }
        case 'RefundPaid':
          await markRefundPaid(sales, event);
          return;
        case 'SaleDeliveryAppointmentScheduled': {
          const { saleId, planningType, date, time, scheduledAt } = event.data;
          await applyOnce(sales, saleId, position, {
            $set: { deliveryAppointment: { planningType, date, time, scheduledAt }, updatedAt: scheduledAt },
          });
          return;
        }
        case 'DeliveryServiceAppointmentSaved': {
          const { saleId, ...appointment } = event.data;
          await applyOnce(sales, saleId, position, {
            $set: { deliveryServiceAppointment: appointment, updatedAt: appointment.savedAt },
          });
          return;
        }
        case 'SavCreated':
          await applyOnce(sales, event.data.saleId, position, { $addToSet: { savIds: event.data.savId } });
          return;
        default:
          return assertNever(event);
      }
    },
  };
};
