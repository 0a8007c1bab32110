import { addDays } from '../../events/planning/calendar-date.ts';
import type { Granularity } from '../../projections/dashboard/buckets.ts';
import { dashboard, type CountByKey, type Dashboard, type DashboardFigures } from '../../projections/dashboard/queries.ts';
import { builder } from '../builder.ts';
import { dayReadCost, daysOf, itemsCountedAbove, pricedAbove } from '../cost.ts';
import { badUserInput } from '../errors.ts';
import { answeredFrom } from '../read-model-answers.ts';
import { dashboardProjectionName } from '../../projections/dashboard/dashboard-projection.ts';

/** The analysts' business dashboard, read from the `dashboard_days` read model. */

const maxDays = 366;

/** The buckets of a period: its days, or the weeks or months it overlaps (at most one more, clipped). */
const bucketsOf = (days: number, granularity: Granularity): number =>
  granularity === 'week' ? Math.ceil(days / 7) + 1 : granularity === 'month' ? Math.ceil(days / 28) + 1 : days;

const GranularityEnum = builder.enumType('DashboardGranularity', {
  values: {
    DAY: { value: 'day' as Granularity },
    WEEK: { value: 'week' as Granularity, description: 'ISO weeks, Monday to Sunday.' },
    MONTH: { value: 'month' as Granularity, description: 'Calendar months.' },
  },
});

const CountByKeyRef = builder.objectRef<CountByKey>('CountByKey').implement({
  fields: (t) => ({ key: t.exposeString('key'), count: t.exposeInt('count') }),
});

const BucketRef = builder.objectRef<DashboardFigures>('DashboardBucket').implement({
  description: 'The figures of a bucket, each dated by its own event on local days of the planning time zone. Amounts are in the shop currency, to the cent.',
  fields: (t) => ({
    start: t.expose('start', { type: 'LocalDate' }),
    end: t.expose('end', { type: 'LocalDate', description: 'Inclusive.' }),
    orders: t.exposeInt('orders', { description: 'Orders placed.' }),
    revenue: t.exposeFloat('revenue', {
      description: 'Grand totals of the orders placed (products and shipping, tax included), before cancellations and refunds.',
    }),
    averageBasket: t.exposeFloat('averageBasket', { nullable: true, description: 'revenue / orders; null without orders.' }),
    cancellations: t.exposeInt('cancellations', { description: 'Orders cancelled as a whole.' }),
    cancelledProducts: t.exposeInt('cancelledProducts', { description: 'Products cancelled, by whole-order or partial cancellations.' }),
    refundRequested: t.exposeFloat('refundRequested', { description: 'Amount of the refunds requested.' }),
    refundPaid: t.exposeFloat('refundPaid', { description: 'Amount of the refunds marked paid.' }),
    savsOpened: t.exposeInt('savsOpened', { description: 'SAVs opened.' }),
    savsByCategory: t.expose('savsByCategory', { type: [CountByKeyRef], description: 'SAVs opened per complaint category, most frequent first.' }),
    savsByType: t.expose('savsByType', { type: [CountByKeyRef], description: 'SAVs opened per sav_type, most frequent first.' }),
    openSavBacklog: t.exposeInt('openSavBacklog', {
      description: 'SAVs in progress at the end of the bucket: every SAV opened up to then, less those resolved or cancelled, plus those reopened.',
    }),
    leads: t.exposeInt('leads', { description: 'Contact leads captured.' }),
  }),
});

type DashboardAnswer = Dashboard & { from: string; to: string; granularity: Granularity; timezone: string };

const DashboardRef = builder.objectRef<DashboardAnswer>('Dashboard').implement({
  fields: (t) => ({
    from: t.expose('from', { type: 'LocalDate', complexity: pricedAbove }),
    to: t.expose('to', { type: 'LocalDate', complexity: pricedAbove }),
    granularity: t.expose('granularity', { type: GranularityEnum, complexity: pricedAbove }),
    timezone: t.exposeString('timezone', { description: 'The time zone the days are local to.', complexity: pricedAbove }),
    buckets: t.expose('buckets', {
      type: [BucketRef],
      description: 'In date order; the first and last are clipped to the period. Days with nothing count zero.',
      complexity: itemsCountedAbove,
    }),
    totals: t.expose('totals', { type: BucketRef, description: 'The whole period; its backlog is the one at its end.', complexity: pricedAbove }),
  }),
});

builder.queryField('dashboard', (t) =>
  t.field({
    type: DashboardRef,
    extensions: answeredFrom(dashboardProjectionName),
    description: `Business figures from \`from\` to \`to\` (inclusive local dates, at most ${maxDays} days), per day, ISO week or calendar month.`,
    args: {
      from: t.arg({ type: 'LocalDate', required: true }),
      to: t.arg({ type: 'LocalDate', required: true }),
      granularity: t.arg({ type: GranularityEnum, defaultValue: 'day' }),
    },
    // The field and its buckets' list, and each day read; what is asked of a bucket, once per bucket.
    complexity: (args) => ({ field: 2 + daysOf(args) * dayReadCost, multiplier: bucketsOf(daysOf(args), args.granularity ?? 'day') }),
    resolve: async (_root, args, { runtime }) => {
      if (args.to < args.from) throw badUserInput('to', `must not be before from (${args.from})`);
      if (args.to > addDays(args.from, maxDays - 1)) throw badUserInput('to', `the range must not exceed ${maxDays} days`);
      const query = { from: args.from, to: args.to, granularity: args.granularity ?? 'day' };
      return { ...query, timezone: runtime.config.planningTimezone, ...(await dashboard(runtime.readStore, query)) };
    },
  }),
);
