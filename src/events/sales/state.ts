import type { z } from 'zod';
import { assertNever } from '../decider.ts';
import type { Address, PlanningType, SupplierName } from '../schema/common-schemas.ts';
import type { LineRefusalReason, payment as paymentSchema, SaleEvent, SaleProduct, SupplierTracking } from './events.ts';

/** A sale as its stream tells it: what the deciders, and the queries that need it, read. */

export type SaleProductState = SaleProduct & {
  acknowledgedAt: string | null;
  /** Set when shipped. */
  preparedAt: string | null;
  cancelledAt: string | null;
  /** The supplier line's tracking number (allocated at import; later for lines imported before that); null without one. */
  trackingNumber: string | null;
  /** Set while the line's supplier refuses it; cleared when staff hand it to the other supplier. */
  refusal: LineRefusal | null;
  /** The supplier's own carrier and tracking, when it shipped without our label. */
  supplierTracking: SupplierTracking | null;
};

export type LineRefusal = { supplier: SupplierName; reason: LineRefusalReason; comment: string; refusedAt: string };

export type RefundState = {
  refundId: number;
  amount: number;
  currency: string;
  reason: string;
  saleProductIds: number[];
  requestedAt: string;
  status: 'requested' | 'paid';
  paidAt: string | null;
};

export type Sale = {
  saleId: number;
  incrementId: string;
  source: string;
  orderedAt: string;
  currency: string;
  customer: { email: string; firstname: string; lastname: string; phone: string | null };
  shippingAddress: Address;
  billingAddress: Address | null;
  products: SaleProductState[];
  payment: z.infer<typeof paymentSchema> | null;
  shippingAmount: number;
  grandTotal: number;
  importedAt: string;
  /** Set by a whole-sale cancellation. */
  cancelledAt: string | null;
  refunds: RefundState[];
  deliveryAppointment: { planningType: PlanningType; date: string; time: string; scheduledAt: string } | null;
  deliveryServiceAppointment: {
    provider: string;
    reference: string;
    date: string | null;
    timeWindow: string | null;
    savedAt: string;
  } | null;
};

/** Null until the sale is imported. */
export type SaleState = Sale | null;

export type SaleStatus = 'processing' | 'complete' | 'cancelled';

export const initialState = (): SaleState => null;

export const isShipped = (product: SaleProductState): boolean => product.preparedAt !== null;
export const isCancelled = (product: SaleProductState): boolean => product.cancelledAt !== null;
export const isRefused = (product: SaleProductState): boolean => product.refusal !== null;

/** A supplier line exists for each product a drop-shipper (supplier-a, supplier-b) ships. */
export const hasSupplierLine = (product: SaleProductState): product is SaleProductState & { supplier: SupplierName } => product.supplier !== null;

export const saleStatus = (sale: Sale): SaleStatus => {
  if (sale.products.every(isCancelled)) return 'cancelled';
  if (sale.products.every((product) => isShipped(product) || isCancelled(product))) return 'complete';
  return 'processing';
};

const updateProduct = (sale: Sale, saleProductId: number, change: Partial<SaleProductState>): Sale => ({
  ...sale,
  products: sale.products.map((product) => (product.saleProductId === saleProductId ? { ...product, ...change } : product)),
});

export const evolve = (state: SaleState, event: SaleEvent): SaleState => {
  if (event.type === 'SaleImported') {
    // The payload's fields beyond the contract are for audit only: no decision reads them.
    const { products, unknownFields: _unknownFields, ...data } = event.data;
    return {
      ...data,
      products: products.map((product) => ({
        ...product,
        acknowledgedAt: null,
        preparedAt: null,
        cancelledAt: null,
        trackingNumber: null,
        refusal: null,
        supplierTracking: null,
      })),
      cancelledAt: null,
      refunds: [],
      deliveryAppointment: null,
      deliveryServiceAppointment: null,
    };
  }
  // Every other event follows the import in the stream.
  if (state === null) return state;
  switch (event.type) {
    case 'SaleAddressUpdated':
      return { ...state, shippingAddress: event.data.shippingAddress };
    case 'SaleProductAcknowledged':
      return updateProduct(state, event.data.saleProductId, { acknowledgedAt: event.data.acknowledgedAt });
    case 'SaleProductShipped':
      return updateProduct(state, event.data.saleProductId, { preparedAt: event.data.preparedAt, supplierTracking: event.data.supplierTracking ?? null });
    case 'SaleProductCancelled':
      return updateProduct(state, event.data.saleProductId, { cancelledAt: event.data.cancelledAt });
    case 'SaleCancelled':
      return { ...state, cancelledAt: event.data.cancelledAt };
    case 'RefundRequested': {
      const { saleId: _saleId, ...refund } = event.data;
      return { ...state, refunds: [...state.refunds, { ...refund, status: 'requested', paidAt: null }] };
    }
    case 'RefundPaid':
      return {
        ...state,
        refunds: state.refunds.map((refund) => (refund.refundId === event.data.refundId ? { ...refund, status: 'paid', paidAt: event.data.paidAt } : refund)),
      };
    case 'SaleDeliveryAppointmentScheduled': {
      const { planningType, date, time, scheduledAt } = event.data;
      return { ...state, deliveryAppointment: { planningType, date, time, scheduledAt } };
    }
    case 'DeliveryServiceAppointmentSaved': {
      const { saleId: _saleId, ...appointment } = event.data;
      return { ...state, deliveryServiceAppointment: appointment };
    }
    case 'TrackingNumberAllocated':
    case 'ShippingLabelCreated':
      return updateProduct(state, event.data.saleProductId, { trackingNumber: event.data.trackingNumber });
    case 'SupplierLineRefused': {
      const { saleProductId, supplier, reason, comment, refusedAt } = event.data;
      return updateProduct(state, saleProductId, { refusal: { supplier, reason, comment, refusedAt } });
    }
    case 'SupplierLineHandedOver':
      // The new supplier starts afresh: nothing acknowledged, nothing refused.
      return updateProduct(state, event.data.saleProductId, { supplier: event.data.toSupplier, acknowledgedAt: null, refusal: null });
    default:
      return assertNever(event);
  }
};
