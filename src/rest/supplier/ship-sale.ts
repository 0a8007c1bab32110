import type { Middleware } from 'koa';
import type { CommandContext } from '../../events/command-context.ts';
import { shipSupplierLine } from '../../events/sales/supplier-lines.ts';
import { parseInput } from '../parse-input.ts';
import type { SupplierCommandDeps } from './acknowledge-sale.ts';
import { shipSaleBody } from './schemas.ts';
import { invalidBodyField, supplierTexts } from './supplier-answers.ts';
import { noteWritten } from '../../http/read-your-writes.ts';

/**
 * POST /api/{supplier}/ship-sale: the line leaves (prepared_at is set), with the supplier's own carrier
 * and tracking when it gives them. Nothing deliverable (unknown, the other supplier's, refused,
 * cancelled or already shipped) is answered 200 with `success: false`, as the suppliers' clients
 * expect: only a malformed body is a 400.
 */
export const shipSale =
  (deps: SupplierCommandDeps): Middleware =>
  async (ctx) => {
    const body = parseInput(shipSaleBody, ctx.request.body, (field, issue) => invalidBodyField(field, issue.message));
    const context: CommandContext = ctx.state.commandContext;
    const line = { serviceOrderId: body.service_order_id, supplier: deps.supplier, ...(body.supplierTracking && { supplierTracking: body.supplierTracking }) };
    const outcome = await shipSupplierLine(deps.salesDeps, line, context);
    if (outcome.status !== 'refused') noteWritten(ctx.state, outcome.written);
    ctx.body = outcome.status === 'refused' ? { success: false, message: supplierTexts.nothingDeliverable } : { success: true, message: supplierTexts.shipped };
  };
