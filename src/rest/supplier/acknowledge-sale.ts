import type { Middleware } from 'koa';
import type { SupplierName } from '../../events/schema/common-schemas.ts';
import type { CommandContext } from '../../events/command-context.ts';
import type { SalesDeps } from '../../events/sales/deps.ts';
import { acknowledgeSupplierLine } from '../../events/sales/supplier-lines.ts';
import { parseInput } from '../parse-input.ts';
import { serviceOrderBody } from './schemas.ts';
import { invalidServiceOrderId, orderNotFoundOrProcessed, supplierTexts } from './supplier-answers.ts';
import { noteWritten } from '../../http/read-your-writes.ts';

export type SupplierCommandDeps = { supplier: SupplierName; salesDeps: SalesDeps };

/**
 * POST /api/{supplier}/acknowledge-sale: the supplier confirms it received the line. A line that is
 * unknown, the other supplier's, cancelled, shipped or already acknowledged is the documented 404.
 */
export const acknowledgeSale =
  (deps: SupplierCommandDeps): Middleware =>
  async (ctx) => {
    const body = parseInput(serviceOrderBody, ctx.request.body, () => invalidServiceOrderId());
    const context: CommandContext = ctx.state.commandContext;
    const outcome = await acknowledgeSupplierLine(deps.salesDeps, { serviceOrderId: body.service_order_id, supplier: deps.supplier }, context);
    if (outcome.status === 'refused') throw orderNotFoundOrProcessed();
    noteWritten(ctx.state, outcome.written);
    ctx.body = { success: true, message: supplierTexts.acknowledged };
  };
