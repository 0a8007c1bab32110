import type { RouterMiddleware } from '@koa/router';
import { cancelTokenData } from '../../../events/access/mint-action-token.ts';
import type { CommandContext } from '../../../events/command-context.ts';
import type { CreditNoteData } from '../../../events/invoicing/documents.ts';
import { cancelSale } from '../../../events/sales/cancel-sale.ts';
import type { Runtime } from '../../../runtime.ts';
import { refusalError } from './sale-action-errors.ts';
import { saleActionRequest, tokenData } from './sale-action-request.ts';
import { saleRefusal } from './sale-precheck.ts';
import { actOnce } from './single-use.ts';
import { seeWritten, type WritesOfRequest } from '../../../http/read-your-writes.ts';

const defaultReason = 'Cancelled through a cancellation link';

const creditNoteOf = async (runtime: Runtime, saleId: number): Promise<CreditNoteData | null> => {
  try {
    return await runtime.invoicing.creditNoteFor(saleId);
  } catch (error) {
    runtime.log.error(
      { saleId, error: (error as Error).message },
      'Credit note not issued after a cancellation; it will be on the next request of the invoice',
    );
    return null;
  }
};

/**
 * POST /api/sale-cancel/{token}: cancels the products the token names, or the whole sale when it names
 * none, and requests the refund of what was paid for them. A token cancels once: every later use
 * answers 409 `action_token_used`, so a link clicked twice, or thirty times at once, refunds once.
 * Nothing that has shipped can be cancelled (409, token still usable).
 */
export const cancelSaleByToken =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const { payload, sale } = await saleActionRequest(runtime, ctx.params, 'cancel');
    const reason = tokenData(cancelTokenData.optional(), payload)?.reason ?? defaultReason;
    const saleProductIds = payload.productIds;
    const context: CommandContext = ctx.state.commandContext;
    const { incrementId } = sale;

    const result = await actOnce(
      runtime,
      payload,
      context,
      {
        // The refund ID of the precheck is a stand-in: its events are discarded, the handler allocates the real one.
        precheck: () =>
          saleRefusal(runtime, incrementId, {
            type: 'CancelSale',
            ...(saleProductIds ? { saleProductIds } : {}),
            reason,
            refundId: 1,
            at: runtime.clock.now().toISOString(),
          }),
        act: () => cancelSale(runtime.salesDeps, { incrementId, ...(saleProductIds ? { saleProductIds } : {}), reason }, context),
      },
      ctx.state,
    );
    if (result.status === 'refused') throw refusalError(result.refusal);

    const cancelled = result.status === 'cancelled' ? result : { cancelledSaleProductIds: [], saleCancelled: false, refund: null };
    // Products already invoiced get their credit note now, from the sale as its read model has the
    // cancellation; should this fail, the cancellation stands and the credit note is issued when the
    // sale's documents are next asked for.
    await seeWritten(runtime.projections, (ctx.state as WritesOfRequest).written);
    const creditNote = result.status === 'cancelled' ? await creditNoteOf(runtime, sale._id) : null;
    ctx.body = {
      success: true,
      sale_id: sale._id,
      increment_id: incrementId,
      status: result.status,
      cancelled_sale_product_ids: cancelled.cancelledSaleProductIds,
      sale_cancelled: cancelled.saleCancelled,
      refund: cancelled.refund && { id: cancelled.refund.refundId, amount: cancelled.refund.amount, currency: cancelled.refund.currency, status: 'requested' },
      credit_note: creditNote && { number: creditNote.number, invoice_number: creditNote.invoice.number, amount: creditNote.totals.ttcCents / 100 },
      message: result.status === 'cancelled' ? 'The cancellation is recorded' : 'Everything asked was already cancelled',
    };
  };
