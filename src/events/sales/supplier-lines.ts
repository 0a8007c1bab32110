import type { SupplierName } from '../schema/common-schemas.ts';
import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, type Written } from '../command-handler.ts';
import type { AcknowledgeSaleProduct, ShipSaleProduct } from './commands.ts';
import { saleDecider } from './decider.ts';
import { nowIso, type Refused, type SalesDeps } from './deps.ts';
import { saleStreamName } from './events.ts';
import { refuse } from './refusals.ts';
import { parseServiceOrderId } from './service-order-id.ts';

/**
 * A supplier acknowledges or ships one of its lines, named by `service_order_id`. The edge answers a
 * malformed identifier itself; one that reaches here anyway, like an unknown order, is an unknown line.
 */

export type SupplierLineInput = { serviceOrderId: string; supplier: SupplierName };

export const acknowledgeSupplierLine = async (
  deps: SalesDeps,
  { serviceOrderId, supplier }: SupplierLineInput,
  context: CommandContext,
): Promise<{ status: 'acknowledged'; written: Written | undefined } | Refused> => {
  const line = parseServiceOrderId(serviceOrderId);
  if (!line) return { status: 'refused', refusal: refuse('line_not_found_or_processed', 'No such line', { serviceOrderId }) };
  const command: AcknowledgeSaleProduct = {
    type: 'AcknowledgeSaleProduct',
    saleProductId: line.saleProductId,
    supplier,
    at: nowIso(deps),
  };
  const outcome = await handleCommand(deps, saleStreamName(line.incrementId), saleDecider, command, context);
  return outcome.status === 'refused' ? { status: 'refused', refusal: outcome.refusal } : { status: 'acknowledged', written: writtenBy(outcome) };
};

export const shipSupplierLine = async (
  deps: SalesDeps,
  { serviceOrderId, supplier }: SupplierLineInput,
  context: CommandContext,
): Promise<{ status: 'shipped'; written: Written | undefined } | Refused> => {
  const line = parseServiceOrderId(serviceOrderId);
  if (!line) return { status: 'refused', refusal: refuse('nothing_deliverable', 'No such line', { serviceOrderId }) };
  const command: ShipSaleProduct = {
    type: 'ShipSaleProduct',
    saleProductId: line.saleProductId,
    supplier,
    at: nowIso(deps),
  };
  const outcome = await handleCommand(deps, saleStreamName(line.incrementId), saleDecider, command, context);
  return outcome.status === 'refused' ? { status: 'refused', refusal: outcome.refusal } : { status: 'shipped', written: writtenBy(outcome) };
};
