import type { RouterMiddleware } from '@koa/router';
import type { InvoiceCache } from '../../../invoicing/invoice-cache.ts';
import { findSaleCreditNote } from '../../../projections/invoicing/queries.ts';
import type { Runtime } from '../../../runtime.ts';
import { HttpError } from '../../../http/http-error.ts';
import { parseInput } from '../../parse-input.ts';
import { renderedOr503 } from '../../pdf-unavailable.ts';
import { verifiedActionToken } from '../action-token-guard.ts';
import { issueDueCreditNote } from './issued-or-503.ts';
import { invalidRequest } from './sale-invoice.ts';
import { saleCreditNoteParams } from './schemas.ts';

/**
 * GET /api/sale-credit-note/{token}/{number}: a credit note (`AV-<year>-<n>`) of the sale the invoice
 * token was issued for, as a PDF. The numbers are those the cancellation answered. A credit note due
 * and not yet issued (a cancellation interrupted before issuing it) is issued first. 404 when the sale
 * has no credit note of that number.
 */
export const saleCreditNote =
  (runtime: Runtime, documents: InvoiceCache): RouterMiddleware =>
  async (ctx) => {
    const { token, number } = parseInput(saleCreditNoteParams, ctx.params, invalidRequest);
    const { saleId } = verifiedActionToken(runtime, token, 'invoice');
    await issueDueCreditNote(runtime, saleId);
    const found = await findSaleCreditNote(runtime.readStore, saleId, number);
    if (!found) throw new HttpError(404, 'credit_note_not_found', `The sale ${saleId} has no credit note ${number}`);
    const pdf = await renderedOr503(ctx, documents.pdf({ kind: 'credit-note', data: found.creditNote }));
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `inline; filename="${number}.pdf"`);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = pdf;
  };
