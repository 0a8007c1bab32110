import { supplierName, type SupplierName } from '../../events/schema/common-schemas.ts';
import { lineRefusalReason, type LineRefusalReason } from '../../events/sales/events.ts';
import type { Filter, ReadStore } from '../read-store/read-store.ts';
import { totalsAsOf } from '../running-totals.ts';
import { delayStats, type DelayStats } from './percentiles.ts';
import {
  supplierPerformanceDaysCollection,
  supplierPerformanceDelaysCollection,
  type SupplierPerformanceDayDocument,
  type SupplierPerformanceDelaysDocument,
} from './supplier-performance-documents.ts';

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
  /** Lines ordered in the period, and lines handed over to the supplier in it. */
  received: number;
  /** Lines acknowledged, shipped, cancelled in the period (whenever they were ordered). */
  acknowledged: number;
  shipped: number;
  cancelled: number;
  /** Lines the supplier refused in the period, and how many for each reason. */
  refused: number;
  refusedFor: Record<LineRefusalReason, number>;
  /** Lines received up to the end of the period and, by then, neither shipped, cancelled nor refused. */
  openBacklog: number;
  /** Seconds from the order, over the acknowledgements and shipments of the period. */
  ackDelay: DelayStats;
  shipDelay: DelayStats;
};

type Totals = Omit<SupplierPerformance, 'supplier' | 'openBacklog' | 'ackDelay' | 'shipDelay'> & { ackDelays: number[]; shipDelays: number[] };

const emptyTotals = (): Totals => ({
  received: 0,
  acknowledged: 0,
  shipped: 0,
  cancelled: 0,
  refused: 0,
  refusedFor: { out_of_stock: 0, discontinued: 0, cannot_deliver: 0, other: 0 },
  ackDelays: [],
  shipDelays: [],
});

const add = (totals: Totals, day: SupplierPerformanceDayDocument): void => {
  totals.received += day.received;
  totals.acknowledged += day.acknowledged;
  totals.shipped += day.shipped;
  totals.cancelled += day.cancelled;
  totals.refused += day.refused;
  for (const reason of lineRefusalReason.options) totals.refusedFor[reason] += day.refusedFor[reason];
};

const addDelays = (totals: Totals, chunk: SupplierPerformanceDelaysDocument): void => {
  const samples = chunk.kind === 'ack' ? totals.ackDelays : totals.shipDelays;
  for (const delay of chunk.delays) samples.push(delay);
};

/**
 * The figures of each supplier (every known one, with zeros when idle) over a period: its days and
 * their delays, and the open backlog at its end from the running total of the last day up to it (one
 * read per supplier, however long the history).
 */
export const supplierPerformance = async (store: ReadStore, query: SupplierPerformanceQuery): Promise<SupplierPerformance[]> => {
  const days = store.collection<SupplierPerformanceDayDocument>(supplierPerformanceDaysCollection);
  const delays = store.collection<SupplierPerformanceDelaysDocument>(supplierPerformanceDelaysCollection);
  const inPeriod = { ...(query.supplier !== undefined && { supplier: query.supplier }), date: { $gte: query.from, $lte: query.to } };
  const suppliers = query.supplier === undefined ? supplierName.options : [query.supplier];
  const [dayDocuments, delayChunks, backlogs] = await Promise.all([
    days.find(inPeriod as Filter<SupplierPerformanceDayDocument>).toArray(),
    delays.find(inPeriod as Filter<SupplierPerformanceDelaysDocument>).toArray(),
    Promise.all(suppliers.map(async (supplier) => (await totalsAsOf(days, { supplier }, query.to, ['open'])).open!)),
  ]);

  const period = new Map(suppliers.map((supplier) => [supplier, emptyTotals()]));
  for (const day of dayDocuments) {
    const totals = period.get(day.supplier);
    if (totals) add(totals, day);
  }
  for (const chunk of delayChunks) {
    const totals = period.get(chunk.supplier);
    if (totals) addDelays(totals, chunk);
  }

  return suppliers.map((supplier, i) => {
    const totals = period.get(supplier)!;
    return {
      supplier,
      received: totals.received,
      acknowledged: totals.acknowledged,
      shipped: totals.shipped,
      cancelled: totals.cancelled,
      refused: totals.refused,
      refusedFor: totals.refusedFor,
      openBacklog: backlogs[i]!,
      ackDelay: delayStats(totals.ackDelays),
      shipDelay: delayStats(totals.shipDelays),
    };
  });
};
