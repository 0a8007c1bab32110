import { savStatusValues } from '../../events/after-sales/events.ts';
import { savsCollection, type SavDocument } from '../../projections/after-sales/sav-document.ts';
import { savsProjection } from '../../projections/after-sales/savs-projection.ts';
import { builder } from '../builder.ts';
import { answeredFrom } from '../read-model-answers.ts';
import { SavStatusEnum } from './sav-type.ts';

/** How many SAVs stand in each status now: the after-sales dashboard's counts. */

type SavStatusCount = { status: SavDocument['status']; count: number };

const SavStatusCountRef = builder.objectRef<SavStatusCount>('SavStatusCount').implement({
  fields: (t) => ({ status: t.expose('status', { type: SavStatusEnum }), count: t.exposeInt('count') }),
});

builder.queryField('savStatusCounts', (t) =>
  t.field({
    type: [SavStatusCountRef],
    extensions: answeredFrom(savsProjection.name),
    description: 'Every SAV counted by its current status, one entry per status (zero included), in the order of the SavStatus values.',
    // One count read per status; what is asked of an entry, once per status.
    complexity: { field: 1 + savStatusValues.options.length, multiplier: savStatusValues.options.length },
    resolve: (_root, _args, { runtime }) => {
      const savs = runtime.readStore.collection<SavDocument>(savsCollection);
      return Promise.all(savStatusValues.options.map(async (status) => ({ status, count: await savs.countDocuments({ status }) })));
    },
  }),
);
