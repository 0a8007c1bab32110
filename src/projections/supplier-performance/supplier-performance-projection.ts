import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/catalogue/catalogue.ts';
import type { SupplierName } from '../../events/catalogue/common-schemas.ts';
import { applyOnce, type Projection } from '../projection.ts';
import type { ReadStore, UpdateFilter } from '../read-store/read-store.ts';
import { localDateIn } from '../sales/order-date.ts';
import {
  supplierDayId,
  supplierLineId,
  supplierPerformanceDaysCollection,
  supplierPerformanceLinesCollection,
  type SupplierPerformanceDayDocument,
  type SupplierPerformanceLineDocument,
} from './supplier-performance-documents.ts';

// A whole-sale cancellation is recorded with one SaleProductCancelled per product it cancels: counting
// SaleCancelled as well would count those lines twice.
const eventTypes = ['SaleImported', 'SaleProductAcknowledged', 'SaleProductShipped', 'SaleProductCancelled'] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

const secondsBetween = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / 1000);

/** The drop-shipping figures of each supplier per local day: lines received, acknowledged, shipped, cancelled, and the delays. */
export const supplierPerformanceProjection = (options: { timezone: string }): Projection => {
  const localDate = localDateIn(options.timezone);
  return {
    name: 'supplier-performance',
    version: 1,
    eventTypes,
    collections: [supplierPerformanceDaysCollection, supplierPerformanceLinesCollection],

    async setup(store: ReadStore) {
      const days = store.collection<SupplierPerformanceDayDocument>(supplierPerformanceDaysCollection);
      await days.createIndex({ supplier: 1, date: 1 });
      await days.createIndex({ date: 1 });
    },

    async apply(stored: StoredEvent, store: ReadStore) {
      if (!handled.has(stored.type)) return;
      const event = stored as StoredEvent<Handled>;
      const days = store.collection<SupplierPerformanceDayDocument>(supplierPerformanceDaysCollection);
      const lines = store.collection<SupplierPerformanceLineDocument>(supplierPerformanceLinesCollection);

      /** One update per day document and event: a second one would be refused as already applied. */
      const updateDay = (supplier: SupplierName, date: string, update: UpdateFilter<SupplierPerformanceDayDocument>) =>
        applyOnce(days, supplierDayId(supplier, date), event.position, { ...update, $set: { supplier, date } }, { upsert: true });

      /** A later milestone of a drop-shipped line, dated on its own day; own-stock products have no line and are skipped. */
      const milestone = async (saleId: number, saleProductId: number, at: string, counter: 'acknowledged' | 'shipped' | 'cancelled') => {
        const line = await lines.findOne({ _id: supplierLineId(saleId, saleProductId) });
        if (!line) return;
        const delay = secondsBetween(line.orderedAt, at);
        const $push = counter === 'acknowledged' ? { ackDelays: delay } : counter === 'shipped' ? { shipDelays: delay } : undefined;
        await updateDay(line.supplier, localDate(at), { $inc: { [counter]: 1 }, ...($push && { $push }) });
      };

      switch (event.type) {
        case 'SaleImported': {
          const { saleId, orderedAt, products } = event.data;
          const received = new Map<SupplierName, number>();
          for (const { saleProductId, supplier } of products) {
            if (supplier === null) continue;
            received.set(supplier, (received.get(supplier) ?? 0) + 1);
            await applyOnce(lines, supplierLineId(saleId, saleProductId), event.position, { $set: { supplier, orderedAt } }, { upsert: true });
          }
          const date = localDate(orderedAt);
          for (const [supplier, count] of received) await updateDay(supplier, date, { $inc: { received: count } });
          return;
        }
        case 'SaleProductAcknowledged':
          await milestone(event.data.saleId, event.data.saleProductId, event.data.acknowledgedAt, 'acknowledged');
          return;
        case 'SaleProductShipped':
          await milestone(event.data.saleId, event.data.saleProductId, event.data.preparedAt, 'shipped');
          return;
        case 'SaleProductCancelled':
          await milestone(event.data.saleId, event.data.saleProductId, event.data.cancelledAt, 'cancelled');
          return;
        default:
          return assertNever(event);
      }
    },
  };
};
