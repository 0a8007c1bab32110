import type { CreditNoteData, InvoiceData } from '../events/invoicing/documents.ts';
import type { Numbered } from '../events/invoicing/issuing-register.ts';
import { localDateIn } from '../time/local-dates.ts';
import type { SaleDocument } from '../projections/sales/sale-document.ts';
import { totalsOf } from './invoice-data.ts';
import { operationCategoryOf } from './operation-category.ts';
import { vatBreakdown } from '../events/invoicing/vat.ts';

/**
 * A credit note (avoir) corrects an issued invoice, which itself never changes: it credits the
 * invoiced lines that have been cancelled since, at the amounts and VAT rates the invoice gave them.
 * A line is credited once: the lines credited by earlier credit notes are left out, so asking again
 * issues nothing. Lines cancelled before the invoice was issued were never invoiced (the invoice lists
 * them as cancelled, out of its totals) and need none. The delivery fee is never credited: a
 * cancellation refunds the products, not the delivery.
 */

export type CreditedLine = CreditNoteData['lines'][number];

/** The invoice's lines that a credit note is due for now: invoiced, cancelled since, not yet credited. */
export const linesToCredit = (
  invoice: InvoiceData,
  sale: Pick<SaleDocument, 'products'>,
  earlier: readonly { saleProductIds: readonly number[] }[],
  timezone: string,
): CreditedLine[] => {
  const localDate = localDateIn(timezone);
  const credited = new Set(earlier.flatMap((creditNote) => creditNote.saleProductIds));
  const cancelledOn = new Map(
    sale.products.flatMap((product) => (product.cancelledAt === null ? [] : [[product.saleProductId, localDate(product.cancelledAt)] as const])),
  );
  return invoice.lines.flatMap(({ cancelled, ...line }) => {
    const on = cancelledOn.get(line.saleProductId);
    return cancelled || on === undefined || credited.has(line.saleProductId) ? [] : [{ ...line, cancelledOn: on }];
  });
};

export const creditNoteData = (
  invoice: InvoiceData,
  lines: CreditedLine[],
  issue: Pick<Numbered, 'number' | 'issuedAt' | 'issuedOn'>,
  seller: CreditNoteData['seller'],
): CreditNoteData => {
  const vat = vatBreakdown(lines.map((line) => ({ ttcCents: line.totalCents, rate: line.rate })));
  return {
    number: issue.number,
    date: issue.issuedOn,
    issuedAt: issue.issuedAt,
    invoice: { number: invoice.number, date: invoice.date },
    orderDate: invoice.orderDate,
    incrementId: invoice.incrementId,
    currency: invoice.currency,
    seller,
    customer: invoice.customer,
    ...(invoice.businessCustomer && { businessCustomer: invoice.businessCustomer }),
    billingAddress: invoice.billingAddress,
    shippingAddress: invoice.shippingAddress,
    operationCategory: operationCategoryOf(lines),
    lines,
    vat,
    totals: totalsOf(vat),
  };
};
