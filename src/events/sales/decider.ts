import { assertNever, type Decider } from '../decider.ts';
import type { Address } from '../schema/common-schemas.ts';
import type { ImportSale, SaleCommand } from './commands.ts';
import type { SaleEvent } from './events.ts';
import { decideCancellation } from './cancellation.ts';
import { refuse, type SaleDecision } from './refusals.ts';
import { evolve, hasSupplierLine, initialState, isCancelled, isRefused, isShipped, saleStatus, type Sale, type SaleState } from './state.ts';

const sameAddress = (a: Address, b: Address): boolean =>
  a.firstname === b.firstname &&
  a.lastname === b.lastname &&
  (a.company ?? '') === (b.company ?? '') &&
  a.street.length === b.street.length &&
  a.street.every((line, index) => line === b.street[index]) &&
  a.postcode === b.postcode &&
  a.city === b.city &&
  a.country_id === b.country_id &&
  (a.telephone ?? '') === (b.telephone ?? '');

const findProduct = (sale: Sale, saleProductId: number) => sale.products.find((product) => product.saleProductId === saleProductId);

/** The sale, and each of its supplier lines with the tracking number it is created with. */
const decideImport = ({ type: _type, at, trackingNumbers, ...data }: ImportSale): SaleDecision => {
  const allocated = new Map(trackingNumbers.map((line) => [line.saleProductId, line.trackingNumber]));
  const lines: SaleEvent[] = [];
  for (const { saleProductId, supplier } of data.products) {
    if (supplier === null) continue;
    const trackingNumber = allocated.get(saleProductId);
    if (trackingNumber === undefined) return refuse('tracking_number_missing', 'A supplier line has no tracking number', { saleProductId });
    lines.push({ type: 'TrackingNumberAllocated', data: { saleId: data.saleId, saleProductId, supplier, trackingNumber, allocatedAt: at } });
  }
  return [{ type: 'SaleImported', data: { ...data, importedAt: at } }, ...lines];
};

const decideOnSale = (command: Exclude<SaleCommand, { type: 'ImportSale' }>, sale: Sale): SaleDecision => {
  const { saleId } = sale;
  switch (command.type) {
    case 'AcknowledgeSaleProduct': {
      const { saleProductId, supplier, at } = command;
      const line = findProduct(sale, saleProductId);
      if (!line || line.supplier !== supplier || isShipped(line) || isCancelled(line) || isRefused(line) || line.acknowledgedAt !== null)
        return refuse('line_not_found_or_processed', 'No line to acknowledge for this supplier', { saleProductId, supplier });
      return [{ type: 'SaleProductAcknowledged', data: { saleId, saleProductId, supplier, acknowledgedAt: at } }];
    }
    case 'ShipSaleProduct': {
      const { saleProductId, supplier, supplierTracking, at } = command;
      const line = findProduct(sale, saleProductId);
      // Acknowledging first is the advised order of use, not a condition; a line the supplier refused is no longer its to ship.
      if (!line || line.supplier !== supplier || isShipped(line) || isCancelled(line) || isRefused(line))
        return refuse('nothing_deliverable', 'No deliverable product for this line', { saleProductId, supplier });
      // The legacy sale log recorded shipments under its cron user; the event metadata still names the supplier.
      return [
        {
          type: 'SaleProductShipped',
          data: { saleId, saleProductId, supplier, preparedAt: at, logUser: 'cron', ...(supplierTracking && { supplierTracking }) },
        },
      ];
    }
    case 'RefuseSupplierLine': {
      const { saleProductId, supplier, reason, comment, at } = command;
      const line = findProduct(sale, saleProductId);
      // Acknowledged or not, an open line of this supplier can be refused, once.
      if (!line || line.supplier !== supplier || isShipped(line) || isCancelled(line) || isRefused(line))
        return refuse('line_not_found_or_processed', 'No open line to refuse for this supplier', { saleProductId, supplier });
      return [{ type: 'SupplierLineRefused', data: { saleId, saleProductId, supplier, reason, comment, refusedAt: at } }];
    }
    case 'HandOverSupplierLine': {
      const { saleProductId, at } = command;
      const line = findProduct(sale, saleProductId);
      if (!line) return refuse('unknown_product', 'No such product in the sale', { saleProductIds: [saleProductId] });
      // Only a refused line changes hands (it is then neither shipped nor cancelled: both close it first).
      if (!hasSupplierLine(line) || !isRefused(line) || isShipped(line) || isCancelled(line))
        return refuse('line_not_refused', 'Only a line its supplier refused can be handed over', { saleProductId });
      const toSupplier = line.supplier === 'supplier-a' ? 'supplier-b' : 'supplier-a';
      return [{ type: 'SupplierLineHandedOver', data: { saleId, saleProductId, fromSupplier: line.supplier, toSupplier, handedOverAt: at } }];
    }
    case 'CancelSale':
      return decideCancellation(command, sale);
    case 'UpdateSaleAddress': {
      const { shippingAddress, at } = command;
      if (sale.products.some(isShipped)) return refuse('already_shipped', 'A product of the sale has already been shipped');
      if (saleStatus(sale) === 'cancelled') return refuse('sale_cancelled', 'The sale is cancelled');
      if (sameAddress(sale.shippingAddress, shippingAddress)) return [];
      return [{ type: 'SaleAddressUpdated', data: { saleId, shippingAddress, updatedAt: at } }];
    }
    case 'ScheduleSaleDeliveryAppointment': {
      const { date, time, expectedPrevious, at } = command;
      // Nothing is left to deliver once every product is shipped or cancelled.
      if (saleStatus(sale) !== 'processing') return refuse('not_schedulable', 'The sale has nothing left to deliver', { status: saleStatus(sale) });
      const current = sale.deliveryAppointment;
      const previous = current ? { date: current.date, time: current.time } : null;
      if (expectedPrevious !== undefined && (expectedPrevious?.date !== previous?.date || expectedPrevious?.time !== previous?.time))
        return refuse('appointment_changed', 'The delivery appointment changed meanwhile', { previous, expectedPrevious });
      if (previous && previous.date === date && previous.time === time) return [];
      return [{ type: 'SaleDeliveryAppointmentScheduled', data: { saleId, planningType: 'delivery', date, time, previous, scheduledAt: at } }];
    }
    case 'SaveDeliveryServiceAppointment': {
      const { provider, reference, date, timeWindow, at } = command;
      if (saleStatus(sale) === 'cancelled') return refuse('sale_cancelled', 'The sale is cancelled');
      const current = sale.deliveryServiceAppointment;
      if (current && current.provider === provider && current.reference === reference && current.date === date && current.timeWindow === timeWindow) return [];
      return [{ type: 'DeliveryServiceAppointmentSaved', data: { saleId, provider, reference, date, timeWindow, savedAt: at } }];
    }
    case 'AllocateTrackingNumber': {
      const { saleProductId, trackingNumber, at } = command;
      const product = findProduct(sale, saleProductId);
      if (!product) return refuse('unknown_product', 'No such product in the sale', { saleProductId });
      if (!hasSupplierLine(product)) return refuse('no_supplier_line', 'The product ships from own stock', { saleProductId });
      // A line keeps its first number: the labels already printed carry it.
      if (product.trackingNumber !== null) return refuse('tracking_number_exists', 'The line already has a tracking number', { saleProductId });
      return [{ type: 'TrackingNumberAllocated', data: { saleId, saleProductId, supplier: product.supplier, trackingNumber, allocatedAt: at } }];
    }
    case 'MarkRefundPaid': {
      const { refundId, at } = command;
      const refund = sale.refunds.find((candidate) => candidate.refundId === refundId);
      if (!refund) return refuse('unknown_refund', 'No such refund for the sale', { refundId });
      if (refund.status === 'paid') return [];
      return [{ type: 'RefundPaid', data: { saleId, refundId, paidAt: at } }];
    }
    default:
      return assertNever(command);
  }
};

const decide = (command: SaleCommand, state: SaleState): SaleDecision => {
  if (command.type === 'ImportSale') {
    // Importing an order again changes nothing: the handler answers the sale already recorded.
    if (state !== null) return [];
    return decideImport(command);
  }
  if (state === null) {
    // An unknown order reads to a supplier like an unknown line.
    if (command.type === 'AcknowledgeSaleProduct' || command.type === 'RefuseSupplierLine') return refuse('line_not_found_or_processed', 'No such sale');
    if (command.type === 'ShipSaleProduct') return refuse('nothing_deliverable', 'No such sale');
    return refuse('sale_not_found', 'No such sale');
  }
  return decideOnSale(command, state);
};

export const saleDecider: Decider<SaleState, SaleCommand, SaleEvent> = { initialState, evolve, decide };
