import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import type { SupplierName } from '../../events/schema/common-schemas.ts';
import { evolveOnce, type Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import { changeDay, type CalendarDocument } from '../running-totals.ts';
import { localDateIn } from '../../time/local-dates.ts';
import {
  delaysChunkId,
  positionsPerDelayChunk,
  supplierDayId,
  supplierLineId,
  supplierPerformanceCalendarsCollection,
  supplierPerformanceDaysCollection,
  supplierPerformanceDelaysCollection,
  supplierPerformanceLinesCollection,
  type DelayKind,
  type SupplierPerformanceDayDocument,
  type SupplierPerformanceDelaysDocument,
  type SupplierPerformanceLineDocument,
} from './supplier-performance-documents.ts';

// A whole-sale cancellation is recorded with one SaleProductCancelled per product it cancels: counting
// SaleCancelled as well would count those lines twice.
const eventTypes = [
  'SaleImported',
  'SaleProductAcknowledged',
  'SaleProductShipped',
  'SaleProductCancelled',
  'SupplierLineRefused',
  'SupplierLineHandedOver',
] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

type Day = Omit<SupplierPerformanceDayDocument, '_id' | '_position'>;

const secondsBetween = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / 1000);

const emptyDay = (supplier: SupplierName, date: string): Day => ({
  supplier,
  date,
  received: 0,
  acknowledged: 0,
  shipped: 0,
  cancelled: 0,
  refused: 0,
  refusedFor: { out_of_stock: 0, discontinued: 0, cannot_deliver: 0, other: 0 },
  openUpTo: 0,
});

type Milestone = 'acknowledged' | 'shipped' | 'cancelled';

const delayOf: Record<Milestone, DelayKind | null> = { acknowledged: 'ack', shipped: 'ship', cancelled: null };

/** The drop-shipping figures of each supplier per local day: lines received, acknowledged, shipped, cancelled, and the delays. */
export const supplierPerformanceProjectionName = 'supplier-performance';

export const supplierPerformanceProjection = (options: { timezone: string; positionsPerDelayChunk?: number }): Projection => {
  const localDate = localDateIn(options.timezone);
  const chunkPositions = options.positionsPerDelayChunk ?? positionsPerDelayChunk;
  return {
    name: supplierPerformanceProjectionName,
    // 2: the delays moved from the day documents to chunks of their own.
    // 3: lines refused by their supplier (with the reasons), lines handed to the other supplier.
    version: 3,
    eventTypes,
    collections: [
      supplierPerformanceDaysCollection,
      supplierPerformanceCalendarsCollection,
      supplierPerformanceLinesCollection,
      supplierPerformanceDelaysCollection,
    ],

    async setup(store: ReadStore) {
      for (const name of [supplierPerformanceDaysCollection, supplierPerformanceDelaysCollection]) {
        const collection = store.collection(name);
        await collection.createIndex({ supplier: 1, date: 1 });
        await collection.createIndex({ date: 1 });
      }
    },

    async apply(stored: StoredEvent, store: ReadStore) {
      if (!handled.has(stored.type)) return;
      const event = stored as StoredEvent<Handled>;
      const lines = store.collection<SupplierPerformanceLineDocument>(supplierPerformanceLinesCollection);
      const days = store.collection<SupplierPerformanceDayDocument>(supplierPerformanceDaysCollection);

      /** The supplier's day document of `date`, changed, with the open backlog moved by `opened` from that day on. */
      const onDay = (supplier: SupplierName, date: string, change: (day: Day) => void, opened: number) =>
        changeDay(
          {
            days,
            calendars: store.collection<CalendarDocument>(supplierPerformanceCalendarsCollection),
            dayId: (day) => supplierDayId(supplier, day),
            scope: supplier,
          },
          date,
          event.position,
          (current) => {
            const day = current === null ? emptyDay(supplier, date) : { ...current };
            change(day);
            return day;
          },
          { open: opened },
        );

      /** Adds the delay to its chunk, named by the event's position: a redelivery finds it there already. */
      const recordDelay = (supplier: SupplierName, date: string, kind: DelayKind, delay: number) =>
        evolveOnce(
          store.collection<SupplierPerformanceDelaysDocument>(supplierPerformanceDelaysCollection),
          delaysChunkId(supplier, date, kind, Math.floor(event.position / chunkPositions)),
          event.position,
          (current) => ({ supplier, date, kind, delays: current === null ? [delay] : [...current.delays, delay] }),
        );

      /** A later milestone of a drop-shipped line, dated on its own day; own-stock products have no line and are skipped. */
      const milestone = async (saleId: number, saleProductId: number, at: string, counter: Milestone) => {
        const line = await lines.findOne({ _id: supplierLineId(saleId, saleProductId) });
        if (!line) return;
        const date = localDate(at);
        const kind = delayOf[counter];
        if (kind !== null) await recordDelay(line.supplier, date, kind, secondsBetween(line.orderedAt, at));
        // A refused line already left its supplier's backlog.
        await onDay(line.supplier, date, (day) => (day[counter] += 1), counter === 'acknowledged' || line.refused ? 0 : -1);
      };

      switch (event.type) {
        case 'SaleImported': {
          const { saleId, orderedAt, products } = event.data;
          const received = new Map<SupplierName, number>();
          for (const { saleProductId, supplier } of products) {
            if (supplier === null) continue;
            received.set(supplier, (received.get(supplier) ?? 0) + 1);
            await evolveOnce(lines, supplierLineId(saleId, saleProductId), event.position, () => ({ supplier, orderedAt }));
          }
          const date = localDate(orderedAt);
          for (const [supplier, count] of received) await onDay(supplier, date, (day) => (day.received += count), count);
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
        case 'SupplierLineRefused': {
          const { saleId, saleProductId, reason, refusedAt } = event.data;
          const id = supplierLineId(saleId, saleProductId);
          const line = await lines.findOne({ _id: id });
          if (!line) return;
          await onDay(
            line.supplier,
            localDate(refusedAt),
            (day) => {
              day.refused += 1;
              day.refusedFor = { ...day.refusedFor, [reason]: day.refusedFor[reason] + 1 };
            },
            -1,
          );
          await evolveOnce(lines, id, event.position, (current) => current && { ...current, refused: true });
          return;
        }
        case 'SupplierLineHandedOver': {
          // The other supplier receives the line the day it is handed over; its delays count from then.
          const { saleId, saleProductId, toSupplier, handedOverAt } = event.data;
          const id = supplierLineId(saleId, saleProductId);
          if (!(await lines.findOne({ _id: id }))) return;
          await onDay(toSupplier, localDate(handedOverAt), (day) => (day.received += 1), 1);
          await evolveOnce(lines, id, event.position, () => ({ supplier: toSupplier, orderedAt: handedOverAt, refused: false }));
          return;
        }
        default:
          return assertNever(event);
      }
    },
  };
};
