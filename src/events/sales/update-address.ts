import type { Address } from '../schema/common-schemas.ts';
import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, type Written } from '../command-handler.ts';
import type { UpdateSaleAddress } from './commands.ts';
import { saleDecider } from './decider.ts';
import { nowIso, type Refused, type SalesDeps } from './deps.ts';
import { saleStreamName } from './events.ts';

export type UpdateSaleAddressInput = { incrementId: string; shippingAddress: Address };

/** Changes where the sale is delivered, as long as nothing has left. */
export const updateSaleAddress = async (
  deps: SalesDeps,
  { incrementId, shippingAddress }: UpdateSaleAddressInput,
  context: CommandContext,
): Promise<{ status: 'updated'; written: Written | undefined } | { status: 'unchanged' } | Refused> => {
  const command: UpdateSaleAddress = { type: 'UpdateSaleAddress', shippingAddress, at: nowIso(deps) };
  const outcome = await handleCommand(deps, saleStreamName(incrementId), saleDecider, command, context);
  if (outcome.status === 'refused') return { status: 'refused', refusal: outcome.refusal };
  return outcome.status === 'accepted' ? { status: 'updated', written: writtenBy(outcome) } : { status: 'unchanged' };
};
