import type { z } from 'zod';
import type { Address, BusinessCustomer, PlanningType } from '../../events/schema/common-schemas.ts';
import type { payment, SaleProduct, SupplierTracking } from '../../events/sales/events.ts';
import type { LineRefusal } from '../../events/sales/state.ts';
import type { Tracked } from '../projection.ts';

/** The `sales` read model: one document per sale, `_id` = saleId. */

export const salesCollection = 'sales';

/** `refused`: its supplier refused the line; staff cancel it or hand it to the other supplier. */
export type SaleProductStateName = 'pending' | 'acknowledged' | 'refused' | 'shipped' | 'cancelled';

export type SaleProductDocument = SaleProduct & {
  state: SaleProductStateName;
  acknowledgedAt: string | null;
  /** Set when shipped. */
  preparedAt: string | null;
  cancelledAt: string | null;
  trackingNumber: string | null;
  labelPath: string | null;
  /** The supplier's refusal, while it stands (cleared by a hand-over; kept on a line cancelled after it). */
  refusal: LineRefusal | null;
  /** The supplier's own carrier and tracking, shown in place of our label's when it shipped with them. */
  supplierTracking: SupplierTracking | null;
};

export type RefundDocument = {
  refundId: number;
  amount: number;
  currency: string;
  reason: string;
  saleProductIds: number[];
  status: 'requested' | 'paid';
  requestedAt: string;
  paidAt: string | null;
};

export type SaleStatus = 'processing' | 'complete' | 'cancelled';

export type SaleDocument = Tracked & {
  _id: number;
  incrementId: string;
  status: SaleStatus;
  source: string;
  orderedAt: string;
  /** The order's local date, YYYY-MM-DD, in the planning's time zone. */
  orderDate: string;
  currency: string;
  customer: { email: string; emailLower: string; firstname: string; lastname: string; phone: string | null };
  /**
   * The company a business customer buys for; absent on a consumer sale. Absent rather than null so
   * that the documents of the sales imported before it stay as they were built (no rebuild needed).
   */
  businessCustomer?: BusinessCustomer;
  shippingAddress: Address;
  billingAddress: Address | null;
  payment: z.infer<typeof payment> | null;
  shippingAmount: number;
  grandTotal: number;
  products: SaleProductDocument[];
  refunds: RefundDocument[];
  deliveryAppointment: { planningType: PlanningType; date: string; time: string; scheduledAt: string } | null;
  deliveryServiceAppointment: {
    provider: string;
    reference: string;
    date: string | null;
    timeWindow: string | null;
    savedAt: string;
  } | null;
  savIds: number[];
  /** The key ID of the customer's erasure, which names its stream (`customererasure-<keyId>`); null until erased. */
  erasureKeyId: string | null;
  importedAt: string;
  /** Set by a whole-sale cancellation. */
  cancelledAt: string | null;
  updatedAt: string;
};

type ProductMilestones = Pick<SaleProductDocument, 'acknowledgedAt' | 'preparedAt' | 'cancelledAt' | 'refusal'>;

/** A product's state follows from its milestones, so it never depends on the order updates were applied in. */
export const productState = (product: ProductMilestones): SaleProductStateName => {
  if (product.cancelledAt !== null) return 'cancelled';
  if (product.preparedAt !== null) return 'shipped';
  if (product.refusal !== null) return 'refused';
  if (product.acknowledgedAt !== null) return 'acknowledged';
  return 'pending';
};

/** Processing until every product has shipped or been cancelled; cancelled when every product was. */
export const saleStatus = (products: readonly { state: SaleProductStateName }[]): SaleStatus => {
  if (products.every((product) => product.state === 'cancelled')) return 'cancelled';
  if (products.every((product) => product.state === 'shipped' || product.state === 'cancelled')) return 'complete';
  return 'processing';
};
