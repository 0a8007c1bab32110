import { addDays, localDateIn } from '../../events/planning/calendar-date.ts';
import { supplierName } from '../../events/schema/common-schemas.ts';
import { openLineCounts, type OpenLineCounts } from '../../projections/supplier-lines/queries.ts';
import { builder } from '../builder.ts';
import { badUserInput } from '../errors.ts';

/** Each drop-shipper's lines open now, and how many of them have waited longer than a number of days. */

const maxDays = 365;

const SupplierOpenLinesRef = builder.objectRef<OpenLineCounts & { olderThanDays: number }>('SupplierOpenLines').implement({
  description: 'Counted now, on local days of the planning time zone.',
  fields: (t) => ({
    supplier: t.exposeString('supplier'),
    open: t.exposeInt('open', { description: 'Lines neither shipped, cancelled nor refused.' }),
    openLongerThan: t.exposeInt('orderedBefore', {
      description: 'Of the open lines, those ordered more than `olderThanDays` days ago (before the local day that many days before today).',
    }),
    olderThanDays: t.exposeInt('olderThanDays'),
  }),
});

builder.queryField('supplierOpenLines', (t) =>
  t.field({
    type: [SupplierOpenLinesRef],
    description: `Per supplier (every known one), its open lines now and those open longer than \`olderThanDays\` (1 to ${maxDays}).`,
    args: { olderThanDays: t.arg.int({ required: true }) },
    // Two count reads per supplier; what is asked of an entry, once per supplier.
    complexity: { field: 1 + 2 * supplierName.options.length, multiplier: supplierName.options.length },
    resolve: async (_root, { olderThanDays }, { runtime }) => {
      if (!Number.isInteger(olderThanDays) || olderThanDays < 1 || olderThanDays > maxDays)
        throw badUserInput('olderThanDays', `must be a whole number of days from 1 to ${maxDays}`);
      const today = localDateIn(runtime.clock.now(), runtime.config.planningTimezone);
      const counts = await openLineCounts(runtime.readStore, supplierName.options, addDays(today, -olderThanDays));
      return counts.map((count) => ({ ...count, olderThanDays }));
    },
  }),
);
