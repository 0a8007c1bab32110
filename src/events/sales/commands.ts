import type { Address, SupplierName } from '../schema/common-schemas.ts';
import type { LineRefusalReason, SaleEvent, SupplierTracking } from './events.ts';

/**
 * Commands of a sale's stream, flat like every aggregate's: `{ type, ...fields }`. Each carries the
 * instant it is decided at (`at`) and every ID it needs, resolved by its application handler, so that
 * deciding stays pure.
 */

type SaleImportedData = Extract<SaleEvent, { type: 'SaleImported' }>['data'];

/** A tracking number allocated (from the `tracking` sequence) for one supplier line. */
export type LineTrackingNumber = { saleProductId: number; trackingNumber: string };

export type ImportSale = { type: 'ImportSale' } & Omit<SaleImportedData, 'importedAt'> & {
    /** One for each product a supplier ships: the lines are created with their tracking numbers. */
    trackingNumbers: readonly LineTrackingNumber[];
    at: string;
  };

export type AcknowledgeSaleProduct = { type: 'AcknowledgeSaleProduct'; saleProductId: number; supplier: SupplierName; at: string };

export type ShipSaleProduct = {
  type: 'ShipSaleProduct';
  saleProductId: number;
  supplier: SupplierName;
  /** The supplier's own carrier and tracking, when it did not ship with our label. */
  supplierTracking?: SupplierTracking;
  at: string;
};

export type RefuseSupplierLine = {
  type: 'RefuseSupplierLine';
  saleProductId: number;
  supplier: SupplierName;
  reason: LineRefusalReason;
  comment: string;
  at: string;
};

/** Staff give a refused line to the other supplier. */
export type HandOverSupplierLine = { type: 'HandOverSupplierLine'; saleProductId: number; at: string };

export type CancelSale = {
  type: 'CancelSale';
  /** Absent: the whole sale. */
  saleProductIds?: readonly number[];
  reason: string;
  /** Pre-allocated; left unused when the cancellation refunds nothing. */
  refundId: number;
  at: string;
};

export type UpdateSaleAddress = { type: 'UpdateSaleAddress'; shippingAddress: Address; at: string };

export type ScheduleSaleDeliveryAppointment = {
  type: 'ScheduleSaleDeliveryAppointment';
  date: string;
  time: string;
  /**
   * The appointment the caller booked the planning against (it released that one). When given and the
   * sale's appointment has changed since, the command is refused: the planning would be out of step.
   */
  expectedPrevious?: { date: string; time: string } | null;
  at: string;
};

export type SaveDeliveryServiceAppointment = {
  type: 'SaveDeliveryServiceAppointment';
  provider: string;
  reference: string;
  date: string | null;
  timeWindow: string | null;
  at: string;
};

/** For a line created before tracking numbers were allocated at import: it gets one now. */
export type AllocateTrackingNumber = { type: 'AllocateTrackingNumber' } & LineTrackingNumber & { at: string };

export type MarkRefundPaid = { type: 'MarkRefundPaid'; refundId: number; at: string };

export type SaleCommand =
  | ImportSale
  | AcknowledgeSaleProduct
  | ShipSaleProduct
  | RefuseSupplierLine
  | HandOverSupplierLine
  | CancelSale
  | UpdateSaleAddress
  | ScheduleSaleDeliveryAppointment
  | SaveDeliveryServiceAppointment
  | AllocateTrackingNumber
  | MarkRefundPaid;
