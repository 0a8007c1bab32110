import type { Seller } from '../config/seller-settings.ts';
import { defaultOperationCategory, type OperationCategory } from '../events/catalog/events.ts';
import type { InvoiceData, InvoiceLine } from '../events/invoicing/documents.ts';
import type { Numbered } from '../events/invoicing/issuing-register.ts';
import { lineCents, toCents } from '../events/schema/money.ts';
import { localDateIn } from '../time/local-dates.ts';
import type { SaleDocument, SaleProductDocument } from '../projections/sales/sale-document.ts';
import { operationCategoryOf } from './operation-category.ts';
import { shippingByRate, standardVatRate, vatBreakdown, type TaxedAmount, type VatRate } from '../events/invoicing/vat.ts';

/** Everything an invoice prints, computed from the sale's read model when it is issued; amounts in cents. */

export type { InvoiceData, InvoiceLine, InvoiceRefund } from '../events/invoicing/documents.ts';

export type InvoiceOptions = {
  /** The planning's time zone, which dates refunds and cancellations as it dates orders. */
  timezone: string;
  seller: Seller;
  /** The VAT rate of each product of the sale, by SKU, from the catalogue at issue time; absent: the standard rate. */
  vatRates?: ReadonlyMap<string, VatRate>;
  /** Goods or services, by SKU, from the catalogue at issue time; absent: goods. */
  operationCategories?: ReadonlyMap<string, OperationCategory>;
};

const invoiceLine = (product: SaleProductDocument, rate: VatRate, operationCategory: OperationCategory): InvoiceLine => ({
  saleProductId: product.saleProductId,
  sku: product.sku,
  name: product.name,
  qty: product.qty,
  unitPriceCents: toCents(product.price),
  totalCents: lineCents(product),
  rate,
  cancelled: product.state === 'cancelled',
  operationCategory,
});

/** The totals of a VAT breakdown: by construction HT + TVA = TTC, to the cent, rate by rate and overall. */
export const totalsOf = (vat: readonly { htCents: number; vatCents: number; ttcCents: number }[]) => ({
  htCents: vat.reduce((sum, line) => sum + line.htCents, 0),
  vatCents: vat.reduce((sum, line) => sum + line.vatCents, 0),
  ttcCents: vat.reduce((sum, line) => sum + line.ttcCents, 0),
});

/** The invoice of a sale as it stands, numbered and dated by its issue. */
export const invoiceData = (sale: SaleDocument, issue: Pick<Numbered, 'number' | 'issuedAt' | 'issuedOn'>, options: InvoiceOptions): InvoiceData => {
  const localDate = localDateIn(options.timezone);
  const lines = sale.products.map((product) =>
    invoiceLine(product, options.vatRates?.get(product.sku) ?? standardVatRate, options.operationCategories?.get(product.sku) ?? defaultOperationCategory),
  );
  const invoiced = lines.filter((line) => !line.cancelled);
  const goods = invoiced.map((line): TaxedAmount => ({ ttcCents: line.totalCents, rate: line.rate }));
  // A cancellation refunds the products, never the delivery: the fee stays invoiced.
  const shippingCents = toCents(sale.shippingAmount);
  const shippingParts = shippingByRate(shippingCents, goods);
  const vat = vatBreakdown([...goods, ...shippingParts]);
  const skuOf = new Map(sale.products.map((product) => [product.saleProductId, product.sku]));
  return {
    number: issue.number,
    date: issue.issuedOn,
    issuedAt: issue.issuedAt,
    orderDate: sale.orderDate,
    incrementId: sale.incrementId,
    currency: sale.currency,
    seller: options.seller,
    customer: { firstname: sale.customer.firstname, lastname: sale.customer.lastname, email: sale.customer.email, phone: sale.customer.phone },
    ...(sale.businessCustomer && { businessCustomer: sale.businessCustomer }),
    billingAddress: sale.billingAddress ?? sale.shippingAddress,
    shippingAddress: sale.shippingAddress,
    operationCategory: operationCategoryOf(invoiced.length > 0 ? invoiced : lines),
    lines,
    shipping: shippingCents > 0 ? { ttcCents: shippingCents, parts: shippingParts } : null,
    vat,
    totals: totalsOf(vat),
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
