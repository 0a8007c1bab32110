import type { ReadStore } from '../read-store/read-store.ts';
import { totalsAsOf } from '../running-totals.ts';
import { addDays } from '../../events/planning/calendar-date.ts';
import { bucketsOf, lastDayOfMonth, type Bucket, type Granularity } from './buckets.ts';
import {
  counted,
  dashboardDaysCollection,
  dashboardMonthsCollection,
  type CountByKey,
  type DashboardDayDocument,
  type DashboardMonthDocument,
  noDashboardSums,
  type DashboardSums,
} from './dashboard-documents.ts';

/** Reads of the dashboard's read models: a period cut into buckets, folded from its day and month documents. */

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

/**
 * A figure as a count to add. The projection records only sums of bounded amounts (in cents), yet a
 * day written before amounts were bounded may hold Infinity (or the null it was stored as) until its
 * read model is rebuilt: such a figure counts 0 rather than fail every query over that day.
 */
const figure = (value: number | null | undefined): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** `sums` with a day's, a month's or a bucket's sums added. */
const add = (sums: DashboardSums, more: DashboardSums): void => {
  sums.orders += figure(more.orders);
  sums.revenueCents += figure(more.revenueCents);
  sums.cancelledOrders += figure(more.cancelledOrders);
  sums.cancelledProducts += figure(more.cancelledProducts);
  sums.refundRequestedCents += figure(more.refundRequestedCents);
  sums.refundPaidCents += figure(more.refundPaidCents);
  sums.savs += figure(more.savs);
  sums.leads += figure(more.leads);
  for (const { key, count } of more.savsByCategory) sums.savsByCategory = counted(sums.savsByCategory, key, count);
  for (const { key, count } of more.savsByType) sums.savsByType = counted(sums.savsByType, key, count);
};

/** Most frequent first, then by key. */
const ranked = (counts: readonly CountByKey[]): CountByKey[] => [...counts].sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/** The answer of a bucket. Its dates are copied one by one: a literal opening with `...bucket` took five times as long to build. */
const figuresOf = (bucket: Bucket, sums: DashboardSums, openSavBacklog: number): DashboardFigures => ({
  start: bucket.start,
  end: bucket.end,
  orders: sums.orders,
  revenue: sums.revenueCents / 100,
  averageBasket: sums.orders === 0 ? null : Math.round(sums.revenueCents / sums.orders) / 100,
  cancellations: sums.cancelledOrders,
  cancelledProducts: sums.cancelledProducts,
  refundRequested: sums.refundRequestedCents / 100,
  refundPaid: sums.refundPaidCents / 100,
  savsOpened: sums.savs,
  savsByCategory: ranked(sums.savsByCategory),
  savsByType: ranked(sums.savsByType),
  openSavBacklog,
  leads: sums.leads,
});

/** A bucket that is a calendar month from its first day to its last, read from its month's document. */
const isWholeMonth = (bucket: Bucket): boolean => bucket.start.endsWith('-01') && bucket.end === lastDayOfMonth(bucket.start);

/**
 * The dashboard of a period (inclusive local dates): one bucket per day, ISO week or calendar month,
 * clipped to the period, plus the totals. Days with nothing recorded count zero. A month asked whole
 * is read from its month document, the days of a clipped month from theirs: a year by month reads at
 * most 12 month documents and the days of two clipped months. The SAV backlog at the end of a bucket
 * is the running total of its last day (or of the last day before it), or, after a whole month, the
 * backlog before it plus the month's change: one more read, however long the history.
 */
export const dashboard = async (store: ReadStore, query: DashboardQuery): Promise<Dashboard> => {
  const days = store.collection<DashboardDayDocument>(dashboardDaysCollection);
  const buckets = bucketsOf(query.from, query.to, query.granularity);
  // Only the first and the last bucket of a period can be clipped: the whole months are consecutive.
  const whole = buckets.filter(isWholeMonth);
  const firstWhole = whole[0];
  const lastWhole = whole.at(-1);
  const daysFrom = (from: string, to: string) => (from > to ? [] : days.find({ date: { $gte: from, $lte: to } }, { sort: { date: 1 } }).toArray());
  const [daysBefore, monthDocs, daysAfter, before] = await Promise.all([
    daysFrom(query.from, firstWhole ? addDays(firstWhole.start, -1) : query.to),
    firstWhole && lastWhole
      ? store
          .collection<DashboardMonthDocument>(dashboardMonthsCollection)
          .find({ _id: { $gte: firstWhole.start.slice(0, 7), $lte: lastWhole.start.slice(0, 7) } })
          .toArray()
      : [],
    lastWhole ? daysFrom(addDays(lastWhole.end, 1), query.to) : [],
    totalsAsOf(days, {}, query.from, ['savs'], { before: true }),
  ]);
  const dayDocs = [...daysBefore, ...daysAfter];
  const monthOf = new Map(monthDocs.map((month) => [month._id, month]));
  let savsSoFar = before.savs!;

  const answered: DashboardFigures[] = [];
  const totals = noDashboardSums();
  let next = 0;
  for (const bucket of buckets) {
    const sums = noDashboardSums();
    if (isWholeMonth(bucket)) {
      const month = monthOf.get(bucket.start.slice(0, 7));
      if (month) {
        add(sums, month);
        savsSoFar += figure(month.savsChange);
      }
    } else {
      let last: DashboardDayDocument | undefined;
      while (next < dayDocs.length && dayDocs[next]!.date <= bucket.end) add(sums, (last = dayDocs[next++]!));
      savsSoFar = last?.savsUpTo ?? savsSoFar;
    }
    add(totals, sums);
    answered.push(figuresOf(bucket, sums, savsSoFar));
  }
  return { buckets: answered, totals: figuresOf({ start: query.from, end: query.to }, totals, savsSoFar) };
};
