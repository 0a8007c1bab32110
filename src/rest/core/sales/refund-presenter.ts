import type { RefundDocument } from '../../../projections/sales/sale-document.ts';

/** A refund as the core API answers it; `paid_at` appears once the refund is paid. */
export type RefundAnswer = {
  id: number;
  amount: number;
  currency: string;
  reason: string;
  sale_product_ids: number[];
  status: RefundDocument['status'];
  created_at: string;
  paid_at?: string;
};

export const presentRefund = (refund: RefundDocument): RefundAnswer => ({
  id: refund.refundId,
  amount: refund.amount,
  currency: refund.currency,
  reason: refund.reason,
  sale_product_ids: refund.saleProductIds,
  status: refund.status,
  created_at: refund.requestedAt,
  ...(refund.paidAt !== null && { paid_at: refund.paidAt }),
});
