import { handOverSupplierLine } from '../../events/sales/supplier-lines.ts';
import { builder } from '../builder.ts';
import { CommandResultRef } from '../command-result.ts';
import { badUserInput, refused } from '../errors.ts';
import { noteWritten } from '../../http/read-your-writes.ts';

const serviceOrderIdFormat = /^\d+_\d+$/;

builder.mutationField('handOverSupplierLine', (t) =>
  t.field({
    type: CommandResultRef,
    authScopes: { staff: true },
    description:
      "Gives a line its supplier refused to the other supplier: status `handed_over`; the line is open again, in that supplier's feed. Refused: SALE_NOT_FOUND, UNKNOWN_PRODUCT, LINE_NOT_REFUSED (open, shipped, cancelled or from own stock).",
    args: { serviceOrderId: t.arg.string({ required: true, description: '<increment_id>_<sale_product_id>' }) },
    resolve: async (_root, { serviceOrderId }, context) => {
      if (!serviceOrderIdFormat.test(serviceOrderId)) throw badUserInput('serviceOrderId', 'expected <increment_id>_<sale_product_id>');
      const { runtime, commandContext } = context;
      const outcome = await handOverSupplierLine(runtime.salesDeps, { serviceOrderId }, commandContext);
      if (outcome.status === 'refused') throw refused(outcome.refusal);
      noteWritten(context.writes, outcome.written);
      return { status: outcome.status };
    },
  }),
);
