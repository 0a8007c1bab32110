import type { RouterMiddleware } from '@koa/router';
import { invoiceData } from '../../../invoices/invoice-data.ts';
import type { InvoiceCache } from '../../../invoices/invoice-cache.ts';
import { findSaleById } from '../../../projections/sales/queries.ts';
import type { Runtime } from '../../../runtime.ts';
import { HttpError } from '../../http-error.ts';
import { parseInput } from '../../parse-input.ts';
import { renderedOr503 } from '../../pdf-unavailable.ts';
import { verifiedActionToken } from '../action-token-guard.ts';
import { saleInvoiceParams } from './schemas.ts';

const invalidRequest = (field: string, issue: { message: string }): HttpError => new HttpError(400, 'invalid_request', `${field}: ${issue.message}`);

/**
 * GET /api/sale-invoice/{token}: the invoice of the sale the token was issued for, as a PDF. Reading
 * an invoice changes nothing, so the token is not used up: the customer's link works until it expires.
 * Rendered by the PDF workers at a person's priority, once per state of the invoice (invoice-cache.ts);
 * 503 with Retry-After when the renderers are saturated or the document fails.
 */
export const saleInvoice =
  (runtime: Runtime, invoices: InvoiceCache): RouterMiddleware =>
  async (ctx) => {
    const { token } = parseInput(saleInvoiceParams, ctx.params, invalidRequest);
    const { saleId } = verifiedActionToken(runtime, token, 'invoice');
    const sale = await findSaleById(runtime.readStore, saleId);
    if (!sale) throw new HttpError(404, 'sale_not_found', `No sale with the ID ${saleId}`);
    const invoice = invoiceData(sale, { timezone: runtime.config.planningTimezone });
    const pdf = await renderedOr503(ctx, invoices.pdf(saleId, invoice));
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `inline; filename="${invoice.number}.pdf"`);
    // The customer's data: kept by no shared cache, and by no browser cache either.
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = pdf;
  };
