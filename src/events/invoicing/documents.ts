import { z } from 'zod';
import { operationCategory } from '../catalog/events.ts';
import { address, businessCustomer, instant, localDate, positiveId } from '../schema/common-schemas.ts';

/**
 * What an issued invoice or credit note prints, recorded whole in the event that issues it: a document
 * of record never changes, whatever happens later to the sale (a cancellation, an address), to the
 * catalogue (a product's VAT rate), to the seller's settings or to the code that computes the figures.
 * Amounts are in cents, VAT rates in basis points (2000 = 20 %).
 *
 * The fields the 2026 reform added (the business customer, the categories of operation, the option for
 * VAT on debits) are optional: the documents issued before them still decode, and print as they did.
 */

const cents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const text = (max: number) => z.string().max(max);
export const vatRateBasisPoints = z.number().int().min(0).max(10_000);

export const documentSeller = z.object({
  name: text(120).min(1),
  legalForm: text(60).min(1),
  street: z.array(text(200)).max(4),
  postcode: text(16),
  city: text(80),
  countryId: z.string().regex(/^[A-Z]{2}$/),
  siret: z.string().regex(/^\d{14}$/),
  rcsCity: text(60).min(1),
  shareCapitalCents: cents,
  vatNumber: z.string().regex(/^FR[0-9A-Z]{2}\d{9}$/),
  paymentTerms: text(500),
  latePaymentPenalties: text(500),
  /** The option for VAT on debits (SELLER_VAT_ON_DEBITS); absent from the documents issued before it was asked, when it was not taken. */
  vatOnDebits: z.boolean().optional(),
  demo: z.boolean(),
});

export const documentLine = z.object({
  saleProductId: positiveId,
  sku: text(64),
  name: text(255),
  qty: z.number().int().positive(),
  /** Tax included, as the sale priced it. */
  unitPriceCents: cents,
  /** Unit price times quantity as the sale counts it (refunds use the same amount). */
  totalCents: cents,
  rate: vatRateBasisPoints,
  /** A line cancelled before the invoice was issued: listed, marked, left out of every total. */
  cancelled: z.boolean(),
  /** Goods or services, as the catalogue said of its product at issue (goods for a SKU it did not know). */
  operationCategory: operationCategory.optional(),
});

/**
 * The category of a document's operations, which it states (CGI annexe II art. 242 nonies A): only
 * deliveries of goods, only services, or both (`mixed`).
 */
export const documentOperationCategory = z.enum(['goods', 'services', 'mixed']);
export type DocumentOperationCategory = z.infer<typeof documentOperationCategory>;

export const taxedAmount = z.object({ ttcCents: cents, rate: vatRateBasisPoints });
export const vatLine = z.object({ rate: vatRateBasisPoints, htCents: cents, vatCents: cents, ttcCents: cents });
export const documentTotals = z.object({ htCents: cents, vatCents: cents, ttcCents: cents });

// As the sale recorded the customer (SaleImported bounds them no further).
const customer = z.object({ firstname: z.string(), lastname: z.string(), email: z.string(), phone: z.string().nullable() });

export const issuedInvoice = z.object({
  number: z.string().regex(/^FA-\d{4}-[1-9]\d*$/),
  /** The issue date (local, PLANNING_TIMEZONE), the invoice's date. */
  date: localDate,
  /** The instant it was issued: the PDF's creation date, so that the document always renders to the same bytes. */
  issuedAt: instant,
  /** The sale's date (local): the date of the sale the invoice is for. */
  orderDate: localDate,
  incrementId: z.string(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  seller: documentSeller,
  customer,
  /** The company the customer bought for, as the sale recorded it; absent for a consumer sale. */
  businessCustomer: businessCustomer.optional(),
  billingAddress: address,
  shippingAddress: address,
  /** Of the invoiced lines (all the lines when every one was cancelled before). */
  operationCategory: documentOperationCategory.optional(),
  lines: z.array(documentLine).min(1),
  /** The fee with the rate(s) it is taxed at; null when there is none. */
  shipping: z.object({ ttcCents: cents, parts: z.array(taxedAmount) }).nullable(),
  vat: z.array(vatLine),
  totals: documentTotals,
  payment: z.object({ method: text(64), status: z.enum(['paid', 'pending', 'failed', 'refunded']), amountPaidCents: cents.nullable() }).nullable(),
  refunds: z.array(
    z.object({
      refundId: positiveId,
      amountCents: cents,
      reason: text(500),
      status: z.enum(['requested', 'paid']),
      requestedOn: localDate,
      paidOn: localDate.nullable(),
      skus: z.array(text(64)),
    }),
  ),
  /** Set when the whole sale had been cancelled before the invoice was issued (local date). */
  cancelledOn: localDate.nullable(),
});
export type InvoiceData = z.infer<typeof issuedInvoice>;
export type InvoiceLine = z.infer<typeof documentLine>;
export type InvoiceRefund = InvoiceData['refunds'][number];

export const issuedCreditNote = z.object({
  number: z.string().regex(/^AV-\d{4}-[1-9]\d*$/),
  date: localDate,
  issuedAt: instant,
  /** The invoice it corrects, never changed itself. */
  invoice: z.object({ number: issuedInvoice.shape.number, date: localDate }),
  orderDate: localDate,
  incrementId: z.string(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  seller: documentSeller,
  customer,
  businessCustomer: businessCustomer.optional(),
  billingAddress: address,
  /** The invoice's delivery address: printed when it differs from the billing address. */
  shippingAddress: address.optional(),
  /** Of the credited lines. */
  operationCategory: documentOperationCategory.optional(),
  /** The invoiced lines cancelled since, at the amounts and rates the invoice gave them, with their cancellation date. */
  lines: z.array(documentLine.omit({ cancelled: true }).extend({ cancelledOn: localDate })).min(1),
  vat: z.array(vatLine),
  totals: documentTotals,
});
export type CreditNoteData = z.infer<typeof issuedCreditNote>;
