import type { Tracked } from '../projection.ts';

/** The figures the dashboard adds up, kept per day and per month. Amounts in cents, so that their sums stay exact. */
export type DashboardSums = {
  /** Orders placed (SaleImported). */
  orders: number;
  /** Their grand totals (products and shipping, tax included). */
  revenueCents: number;
  /** Orders cancelled as a whole (SaleCancelled). */
  cancelledOrders: number;
  /** Products cancelled, by a whole-sale or a partial cancellation (SaleProductCancelled). */
  cancelledProducts: number;
  refundRequestedCents: number;
  refundPaidCents: number;
  /** SAVs opened. */
  savs: number;
  /** SAVs opened per complaint category (free text: kept as values, never as field names), in order of first appearance. */
  savsByCategory: CountByKey[];
  /** SAVs opened per `sav_type`. */
  savsByType: CountByKey[];
  /** Contact leads captured. */
  leads: number;
};

/**
 * The `dashboard_days` read model: one document per local day (planning time zone), `_id` = the date.
 * Each figure is dated by its own event: an order on the day it was placed, a cancellation, a refund
 * request or payment, a SAV or a lead on the day it happened. `savsUpTo` counts the SAVs in progress
 * at the end of the day: opened, less those resolved or cancelled, plus those reopened, up to that day
 * (running-totals.ts).
 */
export const dashboardDaysCollection = 'dashboard_days';

export type DashboardDayDocument = Tracked &
  DashboardSums & {
    _id: string;
    date: string;
    savsUpTo: number;
  };

/**
 * The `dashboard_months` read model: the same figures per calendar month of local days, `_id` =
 * `YYYY-MM`, so that a month asked whole is one document read rather than its thirty days.
 * `savsChange` is the month's change to the SAVs in progress (opened, less resolved or cancelled,
 * plus reopened): the backlog at a month's end is the one at the end of the month before plus it.
 */
export const dashboardMonthsCollection = 'dashboard_months';

export type DashboardMonthDocument = Tracked &
  DashboardSums & {
    _id: string;
    savsChange: number;
  };

export type CountByKey = { key: string; count: number };

/** `counts` with `more` for `key` (one by default): a new array, the entry of `key` replaced or added at the end. */
export const counted = (counts: readonly CountByKey[], key: string, more = 1): CountByKey[] =>
  counts.some((entry) => entry.key === key)
    ? counts.map((entry) => (entry.key === key ? { key, count: entry.count + more } : entry))
    : [...counts, { key, count: more }];

/** Sums with nothing counted yet. */
export const noDashboardSums = (): DashboardSums => ({
  orders: 0,
  revenueCents: 0,
  cancelledOrders: 0,
  cancelledProducts: 0,
  refundRequestedCents: 0,
  refundPaidCents: 0,
  savs: 0,
  savsByCategory: [],
  savsByType: [],
  leads: 0,
});

/** The days that have a document (running-totals.ts): one document, `_id` = `days`. */
export const dashboardCalendarsCollection = 'dashboard_calendars';

/**
 * The `dashboard_refunds` read model: the amount of each requested refund, since the event recording
 * its payment names only the refund.
 */
export const dashboardRefundsCollection = 'dashboard_refunds';

export type DashboardRefundDocument = Tracked & {
  /** `<saleId>:<refundId>`. */
  _id: string;
  amountCents: number;
};

export const dashboardRefundId = (saleId: number, refundId: number): string => `${saleId}:${refundId}`;
