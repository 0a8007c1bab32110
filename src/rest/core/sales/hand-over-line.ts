import type { RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import type { CommandContext } from '../../../events/command-context.ts';
import { handOverSupplierLine } from '../../../events/sales/supplier-lines.ts';
import { HttpError } from '../../../http/http-error.ts';
import { noteWritten } from '../../../http/read-your-writes.ts';
import type { Runtime } from '../../../runtime.ts';
import { parseInput } from '../../parse-input.ts';

/** POST /api/supplier-line-handover: the line its supplier refused, to give to the other supplier. */
export const handOverBody = z.object({
  service_order_id: z
    .string()
    .regex(/^\d+_\d+$/, 'expected <increment_id>_<sale_product_id>')
    .describe('The refused line: <increment_id>_<sale_product_id>.'),
});

const invalidRequest = (field: string, issue: { message: string }): HttpError => new HttpError(400, 'invalid_request', `${field || 'body'}: ${issue.message}`);

/** What a refused hand-over tells staff: 404 for what does not exist, 409 for a line that is not refused. */
export const handOverRefusal = (code: string, serviceOrderId: string): HttpError =>
  code === 'sale_not_found' || code === 'unknown_product'
    ? new HttpError(404, 'line_not_found', `No line ${serviceOrderId}`)
    : new HttpError(409, 'line_not_refused', `The line ${serviceOrderId} is not refused by its supplier: only a refused line can be handed over`);

/**
 * Staff give a line its supplier refused to the other supplier: the line is open again, acknowledged by
 * no one, in that supplier's feed with its label. Cancelling it instead is the existing cancellation.
 */
export const handOverLine =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const body = parseInput(handOverBody, ctx.request.body, invalidRequest);
    const context: CommandContext = ctx.state.commandContext;
    const outcome = await handOverSupplierLine(runtime.salesDeps, { serviceOrderId: body.service_order_id }, context);
    if (outcome.status === 'refused') throw handOverRefusal(outcome.refusal.code, body.service_order_id);
    noteWritten(ctx.state, outcome.written);
    ctx.body = {
      success: true,
      service_order_id: body.service_order_id,
      supplier: outcome.toSupplier,
      message: `The line is handed over to ${outcome.toSupplier}`,
    };
  };
