import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, type Written } from '../command-handler.ts';
import type { AllocateTrackingNumber } from './commands.ts';
import { saleDecider } from './decider.ts';
import { nowIso, type Refused, type SalesDeps } from './deps.ts';
import { saleStreamName } from './events.ts';
import { formatTrackingNumber } from './tracking-number.ts';

export type AllocateTrackingNumberInput = { incrementId: string; saleProductId: number };

/**
 * Gives a tracking number to a supplier line created before numbers were allocated at import (its
 * label is being asked for). A line that got one meanwhile (another request, another process) keeps
 * it, and that one is answered (`existing`); the number drawn here then stays unused: a gap in the
 * sequence, never a duplicate.
 */
export const allocateTrackingNumber = async (
  deps: SalesDeps,
  { incrementId, saleProductId }: AllocateTrackingNumberInput,
  context: CommandContext,
): Promise<{ status: 'allocated' | 'existing'; trackingNumber: string; written?: Written } | Refused> => {
  const [sequence] = await deps.ids.next('tracking');
  if (sequence === undefined) throw new RangeError('The tracking sequence handed out no number');
  const trackingNumber = formatTrackingNumber(sequence);
  const command: AllocateTrackingNumber = { type: 'AllocateTrackingNumber', saleProductId, trackingNumber, at: nowIso(deps) };
  const outcome = await handleCommand(deps, saleStreamName(incrementId), saleDecider, command, context);
  if (outcome.status !== 'refused') return { status: 'allocated', trackingNumber, written: writtenBy(outcome) };
  const recorded = outcome.state?.products.find((product) => product.saleProductId === saleProductId)?.trackingNumber;
  if (outcome.refusal.code === 'tracking_number_exists' && recorded) return { status: 'existing', trackingNumber: recorded };
  return { status: 'refused', refusal: outcome.refusal };
};
