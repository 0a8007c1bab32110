import type { SupplierName } from '../schema/common-schemas.ts';
import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, type Written } from '../command-handler.ts';
import type { AcknowledgeSaleProduct, HandOverSupplierLine, RefuseSupplierLine, ShipSaleProduct } from './commands.ts';
import { saleDecider } from './decider.ts';
import { nowIso, type Refused, type SalesDeps } from './deps.ts';
import { saleStreamName, type LineRefusalReason, type SupplierTracking } from './events.ts';
import { refuse } from './refusals.ts';
import { parseServiceOrderId } from './service-order-id.ts';

/**
 * A supplier acknowledges, ships or refuses one of its lines, named by `service_order_id`; staff hand a
 * refused line to the other supplier. The edge answers a malformed identifier itself; one that reaches
 * here anyway, like an unknown order, is an unknown line.
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
  { serviceOrderId, supplier, supplierTracking }: SupplierLineInput & { supplierTracking?: SupplierTracking },
  context: CommandContext,
): Promise<{ status: 'shipped'; written: Written | undefined } | Refused> => {
  const line = parseServiceOrderId(serviceOrderId);
  if (!line) return { status: 'refused', refusal: refuse('nothing_deliverable', 'No such line', { serviceOrderId }) };
  const command: ShipSaleProduct = {
    type: 'ShipSaleProduct',
    saleProductId: line.saleProductId,
    supplier,
    ...(supplierTracking && { supplierTracking }),
    at: nowIso(deps),
  };
  const outcome = await handleCommand(deps, saleStreamName(line.incrementId), saleDecider, command, context);
  return outcome.status === 'refused' ? { status: 'refused', refusal: outcome.refusal } : { status: 'shipped', written: writtenBy(outcome) };
};

export const refuseSupplierLine = async (
  deps: SalesDeps,
  { serviceOrderId, supplier, reason, comment }: SupplierLineInput & { reason: LineRefusalReason; comment: string },
  context: CommandContext,
): Promise<{ status: 'refused_by_supplier'; written: Written | undefined } | Refused> => {
  const line = parseServiceOrderId(serviceOrderId);
  if (!line) return { status: 'refused', refusal: refuse('line_not_found_or_processed', 'No such line', { serviceOrderId }) };
  const command: RefuseSupplierLine = { type: 'RefuseSupplierLine', saleProductId: line.saleProductId, supplier, reason, comment, at: nowIso(deps) };
  const outcome = await handleCommand(deps, saleStreamName(line.incrementId), saleDecider, command, context);
  return outcome.status === 'refused' ? { status: 'refused', refusal: outcome.refusal } : { status: 'refused_by_supplier', written: writtenBy(outcome) };
};

/** Staff give a line its supplier refused to the other supplier. */
export const handOverSupplierLine = async (
  deps: SalesDeps,
  { serviceOrderId }: { serviceOrderId: string },
  context: CommandContext,
): Promise<{ status: 'handed_over'; toSupplier: SupplierName; written: Written | undefined } | Refused> => {
  const line = parseServiceOrderId(serviceOrderId);
  if (!line) return { status: 'refused', refusal: refuse('sale_not_found', 'No such line', { serviceOrderId }) };
  const command: HandOverSupplierLine = { type: 'HandOverSupplierLine', saleProductId: line.saleProductId, at: nowIso(deps) };
  const outcome = await handleCommand(deps, saleStreamName(line.incrementId), saleDecider, command, context);
  if (outcome.status === 'refused') return { status: 'refused', refusal: outcome.refusal };
  // The line's supplier now is the one it was handed to (a repeated request answers the same).
  const toSupplier = outcome.state?.products.find((product) => product.saleProductId === line.saleProductId)?.supplier ?? null;
  if (toSupplier === null) return { status: 'refused', refusal: refuse('line_not_refused', 'The line has no supplier', { serviceOrderId }) };
  return { status: 'handed_over', toSupplier, written: writtenBy(outcome) };
};
