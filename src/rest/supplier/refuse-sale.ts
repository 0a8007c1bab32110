import type { Middleware } from 'koa';
import type { CommandContext } from '../../events/command-context.ts';
import { refuseSupplierLine } from '../../events/sales/supplier-lines.ts';
import { noteWritten } from '../../http/read-your-writes.ts';
import { parseInput } from '../parse-input.ts';
import type { SupplierCommandDeps } from './acknowledge-sale.ts';
import { refuseSaleBody } from './schemas.ts';
import { invalidBodyField, orderNotFoundOrProcessed, supplierTexts } from './supplier-answers.ts';

/**
 * POST /api/{supplier}/refuse-sale: the supplier will not ship the line (out of stock, discontinued,
 * cannot deliver, other): it leaves the supplier's feed until staff cancel it or hand it to the other
 * supplier. A line that is unknown, the other supplier's, shipped, cancelled or already refused is the
 * acknowledge's 404, and nothing is recorded.
 */
export const refuseSale =
  (deps: SupplierCommandDeps): Middleware =>
  async (ctx) => {
    const body = parseInput(refuseSaleBody, ctx.request.body, (field, issue) => invalidBodyField(field, issue.message));
    const context: CommandContext = ctx.state.commandContext;
    const line = { serviceOrderId: body.service_order_id, supplier: deps.supplier, reason: body.reason, comment: body.comment };
    const outcome = await refuseSupplierLine(deps.salesDeps, line, context);
    if (outcome.status === 'refused') throw orderNotFoundOrProcessed();
    noteWritten(ctx.state, outcome.written);
    ctx.body = { success: true, message: supplierTexts.refused };
  };
