import type { CommandContext } from '../command-context.ts';
import { handleCommand } from '../command-handler.ts';
import type { CreateShippingLabel } from './commands.ts';
import { saleDecider } from './decider.ts';
import { nowIso, type Refused, type SalesDeps } from './deps.ts';
import { saleStreamName } from './events.ts';

export type CreateShippingLabelInput = { incrementId: string; saleProductId: number; trackingNumber: string; labelPath: string };

/** Records that a supplier line has its shipping label; the PDF is rendered and stored by the caller. */
export const createShippingLabel = async (
  deps: SalesDeps,
  { incrementId, ...label }: CreateShippingLabelInput,
  context: CommandContext,
): Promise<{ status: 'created' } | Refused> => {
  const command: CreateShippingLabel = { type: 'CreateShippingLabel', data: { ...label, at: nowIso(deps) } };
  const outcome = await handleCommand(deps, saleStreamName(incrementId), saleDecider, command, context);
  return outcome.status === 'refused' ? { status: 'refused', refusal: outcome.refusal } : { status: 'created' };
};
