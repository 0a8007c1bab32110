import { lineRefusalReason, type LineRefusalReason } from '../../events/sales/events.ts';
import { LineRefusalReasonEnum } from '../sales/sale-parts.ts';
import { supplierName, type SupplierName } from '../../events/schema/common-schemas.ts';
import { addDays } from '../../events/planning/calendar-date.ts';
import type { DelayStats } from '../../projections/supplier-performance/percentiles.ts';
import { supplierPerformance, type SupplierPerformance } from '../../projections/supplier-performance/queries.ts';
import { builder } from '../builder.ts';
import { dayReadCost, daysOf, defaultListSize } from '../cost.ts';
import { badUserInput } from '../errors.ts';
import { answeredFrom } from '../read-model-answers.ts';
import { supplierPerformanceProjectionName } from '../../projections/supplier-performance/supplier-performance-projection.ts';

/** How each drop-shipper keeps up: lines received and handled over a period, and how fast. */

const maxDays = 366;

const isSupplier = (name: string): name is SupplierName => supplierName.safeParse(name).success;

const DelayStatsRef = builder.objectRef<DelayStats>('DelayStats').implement({
  description: 'Delays in seconds from the order, over the lines acknowledged (or shipped) in the period. Percentiles interpolate linearly between ranks.',
  fields: (t) => ({
    samples: t.exposeInt('samples', { description: 'How many lines the figures are computed from.' }),
    median: t.exposeFloat('median', { nullable: true, description: 'Null without samples.' }),
    p90: t.exposeFloat('p90', { nullable: true, description: '90th percentile; null without samples.' }),
  }),
});

const RefusalCountRef = builder.objectRef<{ reason: LineRefusalReason; count: number }>('RefusalCount').implement({
  fields: (t) => ({ reason: t.expose('reason', { type: LineRefusalReasonEnum }), count: t.exposeInt('count') }),
});

const SupplierPerformanceRef = builder.objectRef<SupplierPerformance>('SupplierPerformance').implement({
  description: 'Each figure is dated by its own event, on local days of the planning time zone.',
  fields: (t) => ({
    supplier: t.exposeString('supplier'),
    received: t.exposeInt('received', { description: 'Lines ordered in the period, and lines handed over to this supplier in it.' }),
    acknowledged: t.exposeInt('acknowledged', { description: 'Lines acknowledged in the period, whenever ordered.' }),
    shipped: t.exposeInt('shipped', { description: 'Lines shipped in the period, whenever ordered.' }),
    cancelled: t.exposeInt('cancelled', { description: 'Lines cancelled in the period (partial or whole-sale cancellations), whenever ordered.' }),
    refused: t.exposeInt('refused', { description: 'Lines this supplier refused in the period, whenever ordered.' }),
    refusals: t.field({
      type: [RefusalCountRef],
      description: 'The refusals of the period by reason, every reason listed (0 when none).',
      resolve: ({ refusedFor }) => lineRefusalReason.options.map((reason) => ({ reason, count: refusedFor[reason] })),
    }),
    openBacklog: t.exposeInt('openBacklog', {
      description: 'Lines received up to the end of the period and, at its end, neither shipped, cancelled nor refused.',
    }),
    ackDelay: t.expose('ackDelay', { type: DelayStatsRef, description: 'From the order to the acknowledgement.' }),
    shipDelay: t.expose('shipDelay', { type: DelayStatsRef, description: 'From the order to the shipment.' }),
  }),
});

builder.queryField('supplierPerformance', (t) =>
  t.field({
    type: [SupplierPerformanceRef],
    extensions: answeredFrom(supplierPerformanceProjectionName),
    description: `Per supplier (every known one, or the one given), from \`from\` to \`to\` (inclusive local dates, at most ${maxDays} days).`,
    args: {
      from: t.arg({ type: 'LocalDate', required: true }),
      to: t.arg({ type: 'LocalDate', required: true }),
      supplier: t.arg.string({ description: `One of ${supplierName.options.join(', ')}.` }),
    },
    complexity: (args) => ({ field: 1 + daysOf(args) * dayReadCost, multiplier: defaultListSize }),
    resolve: (_root, args, { runtime }) => {
      if (args.to < args.from) throw badUserInput('to', `must not be before from (${args.from})`);
      if (args.to > addDays(args.from, maxDays - 1)) throw badUserInput('to', `the range must not exceed ${maxDays} days`);
      const supplier = args.supplier ?? undefined;
      if (supplier !== undefined && !isSupplier(supplier))
        throw badUserInput('supplier', `unknown supplier, expected one of ${supplierName.options.join(', ')}`);
      return supplierPerformance(runtime.readStore, { from: args.from, to: args.to, ...(supplier !== undefined && { supplier }) });
    },
  }),
);
