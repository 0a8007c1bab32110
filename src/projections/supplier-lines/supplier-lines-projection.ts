import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/catalogue/catalogue.ts';
import { serviceOrderId } from '../../events/sales/service-order-id.ts';
import { applyOnce, type Projection } from '../projection.ts';
import type { ReadCollection, ReadStore } from '../read-store/read-store.ts';
import { localDateIn } from '../sales/order-date.ts';
import { productState } from '../sales/sale-document.ts';
import { incrementSortKey, supplierLinesCollection, type SupplierLineDocument } from './supplier-line-document.ts';

const eventTypes = [
  'SaleImported',
  'SaleAddressUpdated',
  'SaleProductAcknowledged',
  'SaleProductShipped',
  'SaleProductCancelled',
  'ShippingLabelCreated',
] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

type Lines = ReadCollection<SupplierLineDocument>;

const importLines = async (lines: Lines, event: StoredEvent<EventOfType<'SaleImported'>>, orderDate: string): Promise<void> => {
  const { saleId, incrementId, orderedAt, customer, shippingAddress, products } = event.data;
  for (const product of products) {
    // Only drop-shipped products have a supplier line; the others ship from own stock.
    if (product.supplier === null) continue;
    await applyOnce(
      lines,
      serviceOrderId(incrementId, product.saleProductId),
      event.position,
      {
        $set: {
          supplier: product.supplier,
          saleId,
          incrementId,
          incrementSort: incrementSortKey(incrementId),
          saleProductId: product.saleProductId,
          sku: product.sku,
          name: product.name,
          quantity: product.qty,
          price: product.wholesalePrice,
          carrier: product.carrier,
          orderDate,
          orderedAt,
          state: 'pending',
          open: true,
          acknowledgedAt: null,
          preparedAt: null,
          cancelledAt: null,
          trackingNumber: null,
          labelPath: null,
          shippingAddress,
          customerName: `${customer.firstname} ${customer.lastname}`,
        },
      },
      { upsert: true },
    );
  }
};

/** Sets fields of the line of a sale product, if that product has one, with the state and openness they imply. */
const updateLine = async (
  lines: Lines,
  event: StoredEvent,
  saleId: number,
  saleProductId: number,
  change: Partial<SupplierLineDocument>,
): Promise<void> => {
  const line = await lines.findOne({ saleId, saleProductId });
  if (!line || line._position >= event.position) return;
  const state = productState({ ...line, ...change });
  await applyOnce(lines, line._id, event.position, {
    $set: { ...change, state, open: state !== 'shipped' && state !== 'cancelled' },
  });
};

/** The `supplier_lines` read model: what each drop-shipper fetches, acknowledges and ships. */
export const supplierLinesProjection = (options: { timezone: string }): Projection => {
  const orderDate = localDateIn(options.timezone);
  return {
    name: 'supplier-lines',
    version: 1,
    eventTypes,
    collections: [supplierLinesCollection],

    async setup(store: ReadStore) {
      const lines = store.collection<SupplierLineDocument>(supplierLinesCollection);
      await lines.createIndex({ supplier: 1, open: 1, orderDate: 1, incrementSort: 1, saleProductId: 1 });
      await lines.createIndex({ saleId: 1, saleProductId: 1 });
    },

    async apply(stored: StoredEvent, store: ReadStore) {
      if (!handled.has(stored.type)) return;
      const event = stored as StoredEvent<Handled>;
      const lines = store.collection<SupplierLineDocument>(supplierLinesCollection);
      switch (event.type) {
        case 'SaleImported':
          await importLines(lines, event, orderDate(event.data.orderedAt));
          return;
        case 'SaleAddressUpdated': {
          const { saleId, shippingAddress } = event.data;
          for (const line of await lines.find({ saleId }).toArray()) {
            await applyOnce(lines, line._id, event.position, { $set: { shippingAddress } });
          }
          return;
        }
        case 'SaleProductAcknowledged': {
          const { saleId, saleProductId, acknowledgedAt } = event.data;
          await updateLine(lines, event, saleId, saleProductId, { acknowledgedAt });
          return;
        }
        case 'SaleProductShipped': {
          const { saleId, saleProductId, preparedAt } = event.data;
          await updateLine(lines, event, saleId, saleProductId, { preparedAt });
          return;
        }
        case 'SaleProductCancelled': {
          const { saleId, saleProductId, cancelledAt } = event.data;
          await updateLine(lines, event, saleId, saleProductId, { cancelledAt });
          return;
        }
        case 'ShippingLabelCreated': {
          const { saleId, saleProductId, trackingNumber, labelPath, carrier } = event.data;
          // The label names the carrier actually used; a label without one keeps the ordered carrier.
          const change = carrier === null ? { trackingNumber, labelPath } : { trackingNumber, labelPath, carrier };
          await updateLine(lines, event, saleId, saleProductId, change);
          return;
        }
        default:
          return assertNever(event);
      }
    },
  };
};
