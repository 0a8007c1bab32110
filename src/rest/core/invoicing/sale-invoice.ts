import type { RouterMiddleware } from '@koa/router';
import type { InvoiceCache } from '../../../invoicing/invoice-cache.ts';
import type { Runtime } from '../../../runtime.ts';
import { HttpError } from '../../../http/http-error.ts';
import { parseInput } from '../../parse-input.ts';
import { renderedOr503 } from '../../pdf-unavailable.ts';
import { verifiedActionToken } from '../action-token-guard.ts';
import { issueDueCreditNote, issuedOr503 } from './issued-or-503.ts';
import { saleInvoiceParams } from './schemas.ts';

export const invalidRequest = (field: string, issue: { message: string }): HttpError => new HttpError(400, 'invalid_request', `${field}: ${issue.message}`);

/**
 * GET /api/sale-invoice/{token}: the invoice of the sale the token was issued for, as a PDF. The first
 * request issues it (its number, `FA-<year>-<n>`, from the register's continuous sequence); every later
 * one answers the same document, unchanged whatever happens to the sale since: a cancellation gets a
 * credit note instead (sale-credit-note.ts), which this request also issues if it is due and was not
 * issued yet. Reading uses no token up: the customer's link works until it expires. Rendered by the PDF
 * workers at a person's priority, once per document (invoice-cache.ts); 503 with Retry-After when the
 * renderers are saturated or the register cannot issue now.
 */
export const saleInvoice =
  (runtime: Runtime, invoices: InvoiceCache): RouterMiddleware =>
  async (ctx) => {
    const { token } = parseInput(saleInvoiceParams, ctx.params, invalidRequest);
    const { saleId } = verifiedActionToken(runtime, token, 'invoice');
    const invoice = await issuedOr503(ctx, runtime.invoicing.invoiceFor(saleId));
    if (!invoice) throw new HttpError(404, 'sale_not_found', `No sale with the ID ${saleId}`);
    await issueDueCreditNote(runtime, saleId);
    const pdf = await renderedOr503(ctx, invoices.pdf({ kind: 'invoice', data: invoice }));
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `inline; filename="${invoice.number}.pdf"`);
    // The customer's data: kept by no shared cache, and by no browser cache either.
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = pdf;
  };
