import type { ReadStore } from '../read-store/read-store.ts';
import { totalsAsOf } from '../running-totals.ts';
import { bucketsOf, type Bucket, type Granularity } from './buckets.ts';
import { dashboardDaysCollection, type DashboardDayDocument, type CountByKey } from './dashboard-documents.ts';

/** Reads of the `dashboard_days` read model: a period cut into buckets, folded from its day documents. */

export type DashboardQuery = { from: string; to: string; granularity: Granularity };

export type { CountByKey };

export type DashboardFigures = Bucket & {
  orders: number;
  /** Grand totals of the orders placed, in the shop's currency. */
  revenue: number;
  /** revenue / orders, to the cent; null without orders. */
  averageBasket: number | null;
  /** Orders cancelled as a whole. */
  cancellations: number;
  /** Products cancelled, by whole-sale or partial cancellations. */
  cancelledProducts: number;
  refundRequested: number;
  refundPaid: number;
  savsOpened: number;
  /** Most frequent first, then by key. */
  savsByCategory: CountByKey[];
  savsByType: CountByKey[];
  /** SAVs in progress at the end of the bucket: opened, less resolved and cancelled, plus reopened, since the first one. */
  openSavBacklog: number;
  leads: number;
};

export type Dashboard = { buckets: DashboardFigures[]; totals: DashboardFigures };

/** The counts of the days added up per key: most frequent first, then by key. */
const sumByKey = (perDay: readonly (readonly CountByKey[])[]): CountByKey[] => {
  const counts = new Map<string, number>();
  for (const day of perDay) for (const { key, count } of day) counts.set(key, (counts.get(key) ?? 0) + count);
  return [...counts].map(([key, count]) => ({ key, count })).sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
};

/**
 * A day's figure as a count to add. The projection records only sums of bounded amounts (in cents), yet
 * a day written before amounts were bounded may hold Infinity (or the null it was stored as) until its
 * read model is rebuilt: such a figure counts 0 rather than fail every query over that day.
 */
const figure = (value: number | null | undefined): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** The figures of the days of one bucket; `openSavBacklog` is the running count up to its end. */
const fold = (bucket: Bucket, days: readonly DashboardDayDocument[], openSavBacklog: number): DashboardFigures => {
  let orders = 0;
  let revenueCents = 0;
  let cancellations = 0;
  let cancelledProducts = 0;
  let refundRequestedCents = 0;
  let refundPaidCents = 0;
  let savsOpened = 0;
  let leads = 0;
  const categories: CountByKey[][] = [];
  const types: CountByKey[][] = [];
  for (const day of days) {
    orders += figure(day.orders);
    revenueCents += figure(day.revenueCents);
    cancellations += figure(day.cancelledOrders);
    cancelledProducts += figure(day.cancelledProducts);
    refundRequestedCents += figure(day.refundRequestedCents);
    refundPaidCents += figure(day.refundPaidCents);
    savsOpened += figure(day.savs);
    leads += figure(day.leads);
    categories.push(day.savsByCategory);
    types.push(day.savsByType);
  }
  return {
    ...bucket,
    orders,
    revenue: revenueCents / 100,
    averageBasket: orders === 0 ? null : Math.round(revenueCents / orders) / 100,
    cancellations,
    cancelledProducts,
    refundRequested: refundRequestedCents / 100,
    refundPaid: refundPaidCents / 100,
    savsOpened,
    savsByCategory: sumByKey(categories),
    savsByType: sumByKey(types),
    openSavBacklog,
    leads,
  };
};

/**
 * The dashboard of a period (inclusive local dates): one bucket per day, ISO week or calendar month,
 * clipped to the period, plus the totals. Days with nothing recorded count zero. The SAV backlog at the
 * end of a bucket is the running total of its last day, or of the last day before it: one more read,
 * however long the history.
 */
export const dashboard = async (store: ReadStore, query: DashboardQuery): Promise<Dashboard> => {
  const collection = store.collection<DashboardDayDocument>(dashboardDaysCollection);
  const [days, before] = await Promise.all([
    collection.find({ date: { $gte: query.from, $lte: query.to } }, { sort: { date: 1 } }).toArray(),
    totalsAsOf(collection, {}, query.from, ['savs'], { before: true }),
  ]);
  let savsSoFar = before.savs!;

  const buckets: DashboardFigures[] = [];
  let next = 0;
  for (const bucket of bucketsOf(query.from, query.to, query.granularity)) {
    const inBucket: DashboardDayDocument[] = [];
    while (next < days.length && days[next]!.date <= bucket.end) inBucket.push(days[next++]!);
    savsSoFar = inBucket.at(-1)?.savsUpTo ?? savsSoFar;
    buckets.push(fold(bucket, inBucket, savsSoFar));
  }
  return { buckets, totals: fold({ start: query.from, end: query.to }, days, savsSoFar) };
};
