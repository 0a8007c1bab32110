import type { Address } from '../events/catalogue/common-schemas.ts';
import { lineCents, toCents } from '../events/sales/money.ts';
import { localDateIn } from '../projections/sales/order-date.ts';
import type { RefundDocument, SaleDocument, SaleProductDocument } from '../projections/sales/sale-document.ts';
import { invoiceSeller, type InvoiceSeller } from './seller.ts';
import { shippingByRate, standardVatRate, vatBreakdown, type TaxedAmount, type VatLine, type VatRate } from './vat.ts';

/** Everything an invoice prints, computed from the sale's read model; amounts in cents. */

export type InvoiceLine = {
  saleProductId: number;
  sku: string;
  name: string;
  qty: number;
  unitPriceCents: number;
  /** Unit price times quantity as the sale counts it (refunds use the same amount). */
  totalCents: number;
  rate: VatRate;
  /** A cancelled line is listed, marked, and left out of every total. */
  cancelled: boolean;
};

export type InvoiceRefund = {
  refundId: number;
  amountCents: number;
  reason: string;
  status: RefundDocument['status'];
  /** Local dates (YYYY-MM-DD) in the planning's time zone. */
  requestedOn: string;
  paidOn: string | null;
  skus: string[];
};

export type InvoiceData = {
  number: string;
  /** The order's local date, YYYY-MM-DD. */
  date: string;
  /** The order's instant: the PDF's creation date, so that one state of a sale always gives the same bytes. */
  orderedAt: string;
  incrementId: string;
  currency: string;
  seller: InvoiceSeller;
  customer: { firstname: string; lastname: string; email: string; phone: string | null };
  billingAddress: Address;
  shippingAddress: Address;
  lines: InvoiceLine[];
  /** The fee with the rate(s) it is taxed at; null when there is none. */
  shipping: { ttcCents: number; parts: TaxedAmount[] } | null;
  vat: VatLine[];
  totals: { htCents: number; vatCents: number; ttcCents: number };
  payment: { method: string; status: 'paid' | 'pending' | 'failed' | 'refunded'; amountPaidCents: number | null } | null;
  refunds: InvoiceRefund[];
  /** Set when the whole sale was cancelled (local date). */
  cancelledOn: string | null;
};

export type InvoiceOptions = {
  /** The planning's time zone, which dates refunds and cancellations as it dates orders. */
  timezone: string;
  seller?: InvoiceSeller;
  /** The VAT rate of a product: the order import carries none, hence the standard rate by default. */
  vatRateOf?: (product: SaleProductDocument) => VatRate;
};

/**
 * `FA-<year of the order>-<sale ID on 8 digits>`: derived from the sale alone, so that the same sale
 * always gets the same number, whenever and however often its invoice is asked for.
 */
export const invoiceNumber = (sale: Pick<SaleDocument, '_id' | 'orderDate'>): string => `FA-${sale.orderDate.slice(0, 4)}-${String(sale._id).padStart(8, '0')}`;

const invoiceLine = (product: SaleProductDocument, rate: VatRate): InvoiceLine => ({
  saleProductId: product.saleProductId,
  sku: product.sku,
  name: product.name,
  qty: product.qty,
  unitPriceCents: toCents(product.price),
  totalCents: lineCents(product),
  rate,
  cancelled: product.state === 'cancelled',
});

export const invoiceData = (sale: SaleDocument, options: InvoiceOptions): InvoiceData => {
  const localDate = localDateIn(options.timezone);
  const rateOf = options.vatRateOf ?? (() => standardVatRate);
  const lines = sale.products.map((product) => invoiceLine(product, rateOf(product)));
  const goods = lines.filter((line) => !line.cancelled).map((line): TaxedAmount => ({ ttcCents: line.totalCents, rate: line.rate }));
  // A cancellation refunds the products, never the delivery: the fee stays invoiced.
  const shippingCents = toCents(sale.shippingAmount);
  const shippingParts = shippingByRate(shippingCents, goods);
  const vat = vatBreakdown([...goods, ...shippingParts]);
  const skuOf = new Map(sale.products.map((product) => [product.saleProductId, product.sku]));
  return {
    number: invoiceNumber(sale),
    date: sale.orderDate,
    orderedAt: sale.orderedAt,
    incrementId: sale.incrementId,
    currency: sale.currency,
    seller: options.seller ?? invoiceSeller,
    customer: { firstname: sale.customer.firstname, lastname: sale.customer.lastname, email: sale.customer.email, phone: sale.customer.phone },
    billingAddress: sale.billingAddress ?? sale.shippingAddress,
    shippingAddress: sale.shippingAddress,
    lines,
    shipping: shippingCents > 0 ? { ttcCents: shippingCents, parts: shippingParts } : null,
    vat,
    totals: {
      htCents: vat.reduce((sum, line) => sum + line.htCents, 0),
      vatCents: vat.reduce((sum, line) => sum + line.vatCents, 0),
      ttcCents: vat.reduce((sum, line) => sum + line.ttcCents, 0),
    },
    payment: sale.payment
      ? {
          method: sale.payment.method,
          status: sale.payment.status,
          amountPaidCents: sale.payment.amountPaid === null ? null : toCents(sale.payment.amountPaid),
        }
      : null,
    refunds: sale.refunds.map((refund) => ({
      refundId: refund.refundId,
      amountCents: toCents(refund.amount),
      reason: refund.reason,
      status: refund.status,
      requestedOn: localDate(refund.requestedAt),
      paidOn: refund.paidAt === null ? null : localDate(refund.paidAt),
      skus: refund.saleProductIds.map((id) => skuOf.get(id) ?? String(id)),
    })),
    cancelledOn: sale.cancelledAt === null ? null : localDate(sale.cancelledAt),
  };
};
