import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, type Written } from '../command-handler.ts';
import type { MarkRefundPaid } from './commands.ts';
import { saleDecider } from './decider.ts';
import { nowIso, type Refused, type SalesDeps } from './deps.ts';
import { saleStreamName } from './events.ts';

export type MarkRefundPaidInput = { incrementId: string; refundId: number };

/** Records that a requested refund reached the customer; marking it paid again changes nothing. */
export const markRefundPaid = async (
  deps: SalesDeps,
  { incrementId, refundId }: MarkRefundPaidInput,
  context: CommandContext,
): Promise<{ status: 'paid'; written: Written | undefined } | { status: 'unchanged' } | Refused> => {
  const command: MarkRefundPaid = { type: 'MarkRefundPaid', refundId, at: nowIso(deps) };
  const outcome = await handleCommand(deps, saleStreamName(incrementId), saleDecider, command, context);
  if (outcome.status === 'refused') return { status: 'refused', refusal: outcome.refusal };
  return outcome.status === 'accepted' ? { status: 'paid', written: writtenBy(outcome) } : { status: 'unchanged' };
};
