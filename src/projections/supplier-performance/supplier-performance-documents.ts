import type { SupplierName } from '../../events/catalogue/common-schemas.ts';
import type { Tracked } from '../projection.ts';

/**
 * The `supplier_performance_days` read model: one document per supplier and local day (planning time
 * zone). Each figure is dated by its own event: a line is received on its order's day, acknowledged,
 * shipped or cancelled on the day that happened. Delays (seconds from the order) are kept one per line,
 * so that a median or a percentile over any period is computed exactly from the samples. `openUpTo` is
 * the supplier's open backlog at the end of the day: lines received up to it, less those shipped or
 * cancelled up to it (see running-totals.ts).
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
  /** Seconds from the order to the acknowledgement, one per line acknowledged that day. */
  ackDelays: number[];
  /** Seconds from the order to the shipment, one per line shipped that day. */
  shipDelays: number[];
  openUpTo: number;
};

export const supplierDayId = (supplier: string, date: string): string => `${supplier}:${date}`;

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
  orderedAt: string;
};

export const supplierLineId = (saleId: number, saleProductId: number): string => `${saleId}:${saleProductId}`;
