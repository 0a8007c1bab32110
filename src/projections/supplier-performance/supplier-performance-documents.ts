import type { SupplierName } from '../../events/schema/common-schemas.ts';
import type { LineRefusalReason } from '../../events/sales/events.ts';
import type { Tracked } from '../projection.ts';

/**
 * The `supplier_performance_days` read model: one document per supplier and local day (planning time
 * zone). Each figure is dated by its own event: a line is received on its order's day, acknowledged,
 * shipped or cancelled on the day that happened. `openUpTo` is the supplier's open backlog at the end of
 * the day: lines received up to it, less those shipped or cancelled up to it (see running-totals.ts).
 * The day's delays are kept apart, in `supplier_performance_delays`, so that a day document stays a few
 * numbers however busy the day.
 */
export const supplierPerformanceDaysCollection = 'supplier_performance_days';

export type SupplierPerformanceDayDocument = Tracked & {
  /** `<supplier>:<YYYY-MM-DD>`. */
  _id: string;
  supplier: SupplierName;
  date: string;
  received: number;
  acknowledged: number;
  shipped: number;
  cancelled: number;
  /** Lines the supplier refused that day, and how many for each reason. */
  refused: number;
  refusedFor: Record<LineRefusalReason, number>;
  openUpTo: number;
};

export const supplierDayId = (supplier: string, date: string): string => `${supplier}:${date}`;

/**
 * The `supplier_performance_delays` read model: the delays (seconds from the order) of a supplier's
 * acknowledgements or shipments of one local day, one sample per line, so that a median or a percentile
 * over any period is computed exactly. A day's samples are split into chunks by the log position of
 * their events, `positionsPerDelayChunk` positions a chunk: recording a sample rewrites a chunk of at
 * most that many samples, never the whole day (a busy day's thousands of shipments would otherwise be
 * rewritten by every batch), and a sample's chunk depends on its event alone, so that applying an event
 * again, whatever else was stored, finds it there. At a retailer's usual pace a day's events span one
 * or two chunks.
 */
export const supplierPerformanceDelaysCollection = 'supplier_performance_delays';

export type DelayKind = 'ack' | 'ship';

export type SupplierPerformanceDelaysDocument = Tracked & {
  /** `<supplier>:<YYYY-MM-DD>:<kind>:<chunk>`, the chunk being the events' position / `positionsPerDelayChunk`. */
  _id: string;
  supplier: SupplierName;
  date: string;
  kind: DelayKind;
  delays: number[];
};

export const positionsPerDelayChunk = 4096;

export const delaysChunkId = (supplier: string, date: string, kind: DelayKind, chunk: number): string => `${supplier}:${date}:${kind}:${chunk}`;

/** The days of each supplier that have a document (running-totals.ts), `_id` = the supplier. */
export const supplierPerformanceCalendarsCollection = 'supplier_performance_calendars';

/**
 * The `supplier_performance_lines` read model: what an acknowledgement, a shipment or a cancellation
 * needs to know of its line (events after the import name only the sale and the product).
 */
export const supplierPerformanceLinesCollection = 'supplier_performance_lines';

export type SupplierPerformanceLineDocument = Tracked & {
  /** `<saleId>:<saleProductId>`. */
  _id: string;
  supplier: SupplierName;
  /** When the line reached its supplier: the order, or the hand-over to it. */
  orderedAt: string;
  /** True once its supplier refused it: out of that supplier's backlog already, a later cancellation takes nothing from it. */
  refused?: boolean;
};

export const supplierLineId = (saleId: number, saleProductId: number): string => `${saleId}:${saleProductId}`;
