import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, type Written } from '../command-handler.ts';
import type { CancelSale } from './commands.ts';
import { saleDecider } from './decider.ts';
import { nowIso, type Refused, type SalesDeps } from './deps.ts';
import { saleStreamName } from './events.ts';

export type CancelSaleInput = {
  incrementId: string;
  /** Absent: the whole sale. */
  saleProductIds?: readonly number[];
  reason: string;
};

export type CancelSaleResult =
  | {
      status: 'cancelled';
      cancelledSaleProductIds: number[];
      /** True when the whole sale was cancelled. */
      saleCancelled: boolean;
      refund: { refundId: number; amount: number; currency: string } | null;
      written: Written | undefined;
    }
  /** Everything asked was already cancelled. */
  | { status: 'unchanged' }
  | Refused;

/**
 * Cancels a sale or some of its products. A refund ID is taken before deciding because the decision
 * may request a refund; when it does not, the ID stays unused (a gap in the sequence).
 */
export const cancelSale = async (deps: SalesDeps, input: CancelSaleInput, context: CommandContext): Promise<CancelSaleResult> => {
  const [refundId] = await deps.ids.next('refund');
  if (refundId === undefined) throw new RangeError('The refund sequence handed out no ID');
  const command: CancelSale = {
    type: 'CancelSale',
    ...(input.saleProductIds ? { saleProductIds: input.saleProductIds } : {}),
    reason: input.reason,
    refundId,
    at: nowIso(deps),
  };
  const outcome = await handleCommand(deps, saleStreamName(input.incrementId), saleDecider, command, context);
  if (outcome.status !== 'accepted') return outcome.status === 'refused' ? { status: 'refused', refusal: outcome.refusal } : { status: 'unchanged' };

  const cancelledSaleProductIds: number[] = [];
  let saleCancelled = false;
  let refund: { refundId: number; amount: number; currency: string } | null = null;
  for (const event of outcome.events) {
    if (event.type === 'SaleProductCancelled') cancelledSaleProductIds.push(event.data.saleProductId);
    if (event.type === 'SaleCancelled') saleCancelled = true;
    if (event.type === 'RefundRequested') refund = { refundId: event.data.refundId, amount: event.data.amount, currency: event.data.currency };
  }
  return { status: 'cancelled', cancelledSaleProductIds, saleCancelled, refund, written: writtenBy(outcome) };
};
