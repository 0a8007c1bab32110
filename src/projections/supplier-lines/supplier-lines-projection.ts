import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import { incrementIdOfStream } from '../../events/sales/events.ts';
import { serviceOrderId } from '../../events/sales/service-order-id.ts';
import { labelPathFor } from '../../files/label-path.ts';
import { addressFields, erased, erasedAt, isErased } from '../../events/schema/personal-data.ts';
import { isCustomerErased } from '../erasure.ts';
import { evolveOnce, type Projection } from '../projection.ts';
import type { ReadCollection, ReadStore } from '../read-store/read-store.ts';
import { localDateIn } from '../../time/local-dates.ts';
import { productState } from '../sales/sale-document.ts';
import { listingOf } from './listing.ts';
import { incrementSortKey, supplierLinesCollection, type SupplierLineDocument } from './supplier-line-document.ts';

const eventTypes = [
  'SaleImported',
  'SaleAddressUpdated',
  'SaleProductAcknowledged',
  'SaleProductShipped',
  'SaleProductCancelled',
  'TrackingNumberAllocated',
  'ShippingLabelCreated',
  'SupplierLineRefused',
  'SupplierLineHandedOver',
] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

type Lines = ReadCollection<SupplierLineDocument>;

/** The fields of a line copied from sealed fields of its sale's events. */
const personalFields = [...addressFields('shippingAddress'), 'customerName'];

/** The name a supplier's label shows; an erased customer's is erased whole. */
const customerName = (firstname: string, lastname: string): string => (isErased(firstname) || isErased(lastname) ? erased : `${firstname} ${lastname}`);
type Line = Omit<SupplierLineDocument, '_id' | '_position'>;
type LineChange = Partial<Pick<Line, 'acknowledgedAt' | 'preparedAt' | 'cancelledAt' | 'trackingNumber' | 'labelPath' | 'carrier' | 'supplier' | 'refusal'>>;

const importLines = async (lines: Lines, event: StoredEvent<EventOfType<'SaleImported'>>, orderDate: string): Promise<void> => {
  const { saleId, incrementId, orderedAt, customer, shippingAddress, products } = event.data;
  for (const product of products) {
    // Only drop-shipped products have a supplier line; the others ship from own stock.
    if (product.supplier === null) continue;
    const supplier = product.supplier;
    const _id = serviceOrderId(incrementId, product.saleProductId);
    await evolveOnce(lines, _id, event.position, (): Line => ({
      supplier,
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
      refusal: null,
      shippingAddress,
      customerName: customerName(customer.firstname, customer.lastname),
      ...listingOf({ _id, supplier, sku: product.sku, quantity: product.qty, price: product.wholesalePrice, orderDate, carrier: product.carrier, open: true }),
    }));
  }
};

/** The line with a milestone of its product, and the state, openness and listing that follow. */
const withChange = (line: SupplierLineDocument, change: LineChange): SupplierLineDocument => {
  const next = { ...line };
  for (const [field, value] of Object.entries(change) as [keyof LineChange, unknown][]) next[field] = value as never;
  next.state = productState(next);
  next.open = next.state !== 'shipped' && next.state !== 'cancelled' && next.state !== 'refused';
  const { listingHead, listingTail } = listingOf(next);
  next.listingHead = listingHead;
  next.listingTail = listingTail;
  return next;
};

/**
 * Sets fields of the line of a sale product, if that product has one (a product shipped from own stock
 * has none). The line is named after the sale's increment ID, which the sale's stream is named after.
 */
const changeLine = (lines: Lines, event: StoredEvent<Handled>, saleProductId: number, change: LineChange): Promise<boolean> =>
  evolveOnce(lines, serviceOrderId(incrementIdOfStream(event.streamName), saleProductId), event.position, (line) => line && withChange(line, change));

/** The `supplier_lines` read model: what each drop-shipper fetches, acknowledges and ships. */
export const supplierLinesProjection = (options: { timezone: string }): Projection => {
  const orderDate = localDateIn(options.timezone);
  return {
    name: 'supplier-lines',
    // 2: each line carries its listing, read by get-sales from the index.
    // 3: rebuilt from events read with bounded amounts (an old log's 1e308 wholesale prices).
    // 4: a line refused by its supplier (out of the feed), a line handed to the other supplier.
    version: 4,
    eventTypes: [...eventTypes, 'CustomerErased'],
    collections: [supplierLinesCollection],
    // supplier-a's listing is kept per supplier: a change to supplier-b's lines leaves it as it is.
    changeKeyOf: (_collection, document) => (document as Partial<SupplierLineDocument>).supplier,

    async setup(store: ReadStore) {
      const lines = store.collection<SupplierLineDocument>(supplierLinesCollection);
      // The listing order, and the listing itself: a page of get-sales is read from this index alone.
      await lines.createIndex({ supplier: 1, open: 1, orderDate: 1, incrementSort: 1, saleProductId: 1, _id: 1, listingHead: 1, listingTail: 1 });
      await lines.createIndex({ saleId: 1, saleProductId: 1 });
      await lines.createIndex({ incrementId: 1 });
    },

    async apply(stored: StoredEvent, store: ReadStore) {
      const lines = store.collection<SupplierLineDocument>(supplierLinesCollection);
      if (isCustomerErased(stored)) {
        for (const { saleId } of stored.data.sales) {
          for (const { _id } of await lines.find({ saleId }).toArray()) {
            await evolveOnce(lines, _id, stored.position, (line) => line && { ...erasedAt(line, personalFields) });
          }
        }
        return;
      }
      if (!handled.has(stored.type)) return;
      const event = stored as StoredEvent<Handled>;
      switch (event.type) {
        case 'SaleImported':
          await importLines(lines, event, orderDate(event.data.orderedAt));
          return;
        case 'SaleAddressUpdated': {
          // Rare: the sale's lines are found by the index rather than kept in a list of their own.
          const { shippingAddress } = event.data;
          for (const { _id } of await lines.find({ saleId: event.data.saleId }).toArray()) {
            await evolveOnce(lines, _id, event.position, (line) => line && { ...line, shippingAddress });
          }
          return;
        }
        case 'SaleProductAcknowledged':
          await changeLine(lines, event, event.data.saleProductId, { acknowledgedAt: event.data.acknowledgedAt });
          return;
        case 'SaleProductShipped':
          await changeLine(lines, event, event.data.saleProductId, { preparedAt: event.data.preparedAt });
          return;
        case 'SaleProductCancelled':
          await changeLine(lines, event, event.data.saleProductId, { cancelledAt: event.data.cancelledAt });
          return;
        case 'TrackingNumberAllocated': {
          const { saleProductId, supplier, trackingNumber } = event.data;
          const labelPath = labelPathFor(supplier, serviceOrderId(incrementIdOfStream(event.streamName), saleProductId));
          await changeLine(lines, event, saleProductId, { trackingNumber, labelPath });
          return;
        }
        case 'ShippingLabelCreated': {
          const { saleProductId, trackingNumber, labelPath, carrier } = event.data;
          // The label names the carrier actually used; a label without one keeps the ordered carrier.
          await changeLine(lines, event, saleProductId, carrier === null ? { trackingNumber, labelPath } : { trackingNumber, labelPath, carrier });
          return;
        }
        case 'SupplierLineRefused': {
          const { saleProductId, supplier, reason, comment, refusedAt } = event.data;
          await changeLine(lines, event, saleProductId, { refusal: { supplier, reason, comment, refusedAt } });
          return;
        }
        case 'SupplierLineHandedOver': {
          // The line moves to the other supplier's feed, its label (same number) under that supplier's path.
          const { saleProductId, toSupplier } = event.data;
          const _id = serviceOrderId(incrementIdOfStream(event.streamName), saleProductId);
          await evolveOnce(
            lines,
            _id,
            event.position,
            (line) =>
              line &&
              withChange(line, { supplier: toSupplier, acknowledgedAt: null, refusal: null, labelPath: line.labelPath && labelPathFor(toSupplier, _id) }),
          );
          return;
        }
        default:
          return assertNever(event);
      }
    },
  };
};
