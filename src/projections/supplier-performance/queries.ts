import { supplierName, type SupplierName } from '../../events/catalogue/common-schemas.ts';
import type { Filter, ReadStore } from '../read-store/read-store.ts';
import { delayStats, type DelayStats } from './percentiles.ts';
import { supplierPerformanceDaysCollection, type SupplierPerformanceDayDocument } from './supplier-performance-documents.ts';

/** Reads of the `supplier_performance_days` read model. */

export type SupplierPerformanceQuery = {
  /** Inclusive local dates, YYYY-MM-DD. */
  from: string;
  to: string;
  /** Absent: every supplier. */
  supplier?: SupplierName;
};

export type SupplierPerformance = {
  supplier: SupplierName;
  /** Lines ordered in the period. */
  received: number;
  /** Lines acknowledged, shipped, cancelled in the period (whenever they were ordered). */
  acknowledged: number;
  shipped: number;
  cancelled: number;
  /** Lines received up to the end of the period and, by then, neither shipped nor cancelled. */
  openBacklog: number;
  /** Seconds from the order, over the acknowledgements and shipments of the period. */
  ackDelay: DelayStats;
  shipDelay: DelayStats;
};

type Totals = { received: number; acknowledged: number; shipped: number; cancelled: number; ackDelays: number[]; shipDelays: number[] };

const emptyTotals = (): Totals => ({ received: 0, acknowledged: 0, shipped: 0, cancelled: 0, ackDelays: [], shipDelays: [] });

const add = (totals: Totals, day: SupplierPerformanceDayDocument): void => {
  totals.received += day.received ?? 0;
  totals.acknowledged += day.acknowledged ?? 0;
  totals.shipped += day.shipped ?? 0;
  totals.cancelled += day.cancelled ?? 0;
  for (const delay of day.ackDelays ?? []) totals.ackDelays.push(delay);
  for (const delay of day.shipDelays ?? []) totals.shipDelays.push(delay);
};

/**
 * The figures of each supplier (every known one, with zeros when idle) over a period. The open backlog
 * needs the counts since the first day: the days before the period are read without their delays.
 */
export const supplierPerformance = async (store: ReadStore, query: SupplierPerformanceQuery): Promise<SupplierPerformance[]> => {
  const days = store.collection<SupplierPerformanceDayDocument>(supplierPerformanceDaysCollection);
  const bySupplier: Filter<SupplierPerformanceDayDocument> = query.supplier === undefined ? {} : { supplier: query.supplier };
  const [inPeriod, before] = await Promise.all([
    days.find({ ...bySupplier, date: { $gte: query.from, $lte: query.to } }).toArray(),
    days.find({ ...bySupplier, date: { $lt: query.from } }, { projection: { supplier: 1, received: 1, shipped: 1, cancelled: 1 } }).toArray(),
  ]);

  const suppliers = query.supplier === undefined ? supplierName.options : [query.supplier];
  const period = new Map(suppliers.map((supplier) => [supplier, emptyTotals()]));
  const history = new Map(suppliers.map((supplier) => [supplier, emptyTotals()]));
  for (const day of inPeriod) {
    const totals = period.get(day.supplier);
    if (totals) add(totals, day);
  }
  for (const day of before) {
    const totals = history.get(day.supplier);
    if (totals) add(totals, day);
  }

  return suppliers.map((supplier) => {
    const totals = period.get(supplier)!;
    const earlier = history.get(supplier)!;
    const closed = earlier.shipped + earlier.cancelled + totals.shipped + totals.cancelled;
    return {
      supplier,
      received: totals.received,
      acknowledged: totals.acknowledged,
      shipped: totals.shipped,
      cancelled: totals.cancelled,
      openBacklog: earlier.received + totals.received - closed,
      ackDelay: delayStats(totals.ackDelays),
      shipDelay: delayStats(totals.shipDelays),
    };
  });
};
