import { markRefundPaid } from '../../events/sales/refunds.ts';
import { builder } from '../builder.ts';
import { CommandResultRef } from '../command-result.ts';
import { refused } from '../errors.ts';
import { noteWritten } from '../../http/read-your-writes.ts';

builder.mutationField('markRefundPaid', (t) =>
  t.field({
    type: CommandResultRef,
    authScopes: { staff: true },
    description:
      'Records that a requested refund reached the customer: status `paid`, or `unchanged` when it already was. Refused: SALE_NOT_FOUND, UNKNOWN_REFUND.',
    args: { incrementId: t.arg.string({ required: true }), refundId: t.arg.int({ required: true }) },
    resolve: async (_root, { incrementId, refundId }, context) => {
      const { runtime, commandContext } = context;
      const outcome = await markRefundPaid(runtime.salesDeps, { incrementId, refundId }, commandContext);
      if (outcome.status === 'refused') throw refused(outcome.refusal);
      if (outcome.status === 'paid') noteWritten(context.writes, outcome.written);
      return { status: outcome.status };
    },
  }),
);
