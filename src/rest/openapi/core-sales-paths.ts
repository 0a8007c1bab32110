import { z } from 'zod';
import { saleCreditNoteParams, saleInvoiceParams } from '../core/invoicing/schemas.ts';
import { invalidParameter, saleNotFound } from '../core/sales/sale-errors.ts';
import { incrementIdParams, saleIdParams } from '../core/sales/schemas.ts';
import { HttpError } from '../../http/http-error.ts';
import { handOverBody, handOverRefusal } from '../core/sales/hand-over-line.ts';
import { coreBase, coreBodyFailures, coreCommon, failure, refusalOf, requestHeadTooLarge, unknownQueryParameter } from './core-failures.ts';
import { coreRdvConfig, coreRefund, coreSale } from './core-responses.ts';
import { rdvConfigExample, refundsExample, saleExample } from './core-examples.ts';
import type { RouteDoc } from './document.ts';

/** The core sale reads (core/sales/routes.ts) and the invoice (core/invoicing/routes.ts). */

export const coreSalesComponents = { CoreSale: coreSale, CoreRefund: coreRefund, CoreRdvConfig: coreRdvConfig };

const base = { ...coreBase, tags: ['core-sales'] };

const badId = (description: string) => failure(description, refusalOf(saleIdParams, { id: '12.0' }, invalidParameter));
const noSale = failure('No sale has this ID.', saleNotFound({ id: 404404 }));

const handedOver = z.object({
  success: z.literal(true),
  service_order_id: z.string(),
  supplier: z.enum(['supplier-a', 'supplier-b']).describe('The supplier the line is now with'),
  message: z.string(),
});

export const coreSalesRouteDocs = (): RouteDoc[] => [
  {
    ...base,
    method: 'post',
    path: '/api/supplier-line-handover',
    operationId: 'handOverSupplierLine',
    summary: 'Gives a line its supplier refused to the other supplier',
    description:
      'The line is open again, acknowledged by no one, in the other supplier’s feed with its label (same tracking number, that supplier’s link). ' +
      'Cancelling the refused line instead is the cancellation (POST /api/sale-cancel/{token}), with its refund. Nothing is recorded on a refusal.',
    body: handOverBody,
    responses: {
      200: {
        description: 'Handed over.',
        body: handedOver,
        example: { success: true, service_order_id: '100000003_5', supplier: 'supplier-b', message: 'The line is handed over to supplier-b' },
      },
      ...coreBodyFailures(),
      400: failure(
        'The service_order_id is missing or malformed.',
        new HttpError(400, 'invalid_request', 'service_order_id: expected <increment_id>_<sale_product_id>'),
      ),
      ...coreCommon,
      404: failure('No such sale or product.', handOverRefusal('unknown_product', '100000003_99')),
      409: failure(
        'The line is not refused by its supplier (open, shipped, cancelled, or from own stock).',
        handOverRefusal('line_not_refused', '100000003_5'),
      ),
    },
  },
  {
    ...base,
    method: 'get',
    path: '/api/get-sale-info-by-increment-id/:incrementId',
    operationId: 'getSaleByIncrementId',
    summary: 'The full sale, by the increment ID of its order',
    description:
      'Customer, addresses, payment, products with their supplier lines and tracking, refunds, appointments and SAVs; the same presenter as GET /api/sale/{id}.',
    pathParams: incrementIdParams,
    responses: {
      200: { description: 'The sale.', body: coreSale, example: saleExample },
      400: failure(
        'The increment ID is not 1 to 20 digits, or a query parameter was given.',
        refusalOf(incrementIdParams, { incrementId: 'A-12' }, invalidParameter),
      ),
      ...coreCommon,
      404: failure('No sale has this increment ID.', saleNotFound({ incrementId: '100004512' })),
    },
  },
  {
    ...base,
    method: 'get',
    path: '/api/sale/:id',
    operationId: 'getSale',
    summary: 'The full sale, by its ID',
    pathParams: saleIdParams,
    responses: {
      200: { description: 'The sale.', body: coreSale, example: saleExample },
      400: badId('The ID is not a positive integer (plain digits, at most 2147483647), or a query parameter was given.'),
      ...coreCommon,
      404: noSale,
    },
  },
  {
    ...base,
    method: 'get',
    path: '/api/sale-refund/:id',
    operationId: 'getSaleRefunds',
    summary: "The sale's refunds, in the order they were requested",
    pathParams: saleIdParams,
    responses: {
      200: { description: 'The refunds; [] when there is none. `paid_at` appears once paid.', body: z.array(coreRefund), example: refundsExample },
      400: badId('The ID is not a positive integer, or a query parameter was given.'),
      ...coreCommon,
      404: noSale,
    },
  },
  {
    ...base,
    method: 'get',
    path: '/api/sale-rdv/:id',
    operationId: 'getSaleRdvConfig',
    summary: 'The delivery appointment configuration of the sale: today and the next 30 days',
    description:
      'The open days of the delivery planning (holidays and closed weekdays left out), each slot with its capacity, booked and free places; the slot the sale holds stays available to it (`current`).',
    pathParams: saleIdParams,
    responses: {
      200: { description: 'The configuration.', body: coreRdvConfig, example: rdvConfigExample },
      400: badId('The ID is not a positive integer, or a query parameter was given.'),
      ...coreCommon,
      404: noSale,
    },
  },
  {
    ...base,
    tags: ['core-sale-actions'],
    method: 'get',
    path: '/api/sale-invoice/:token',
    operationId: 'getSaleInvoice',
    summary: 'The invoice of the sale, as a PDF, through an action token of kind invoice',
    description:
      'The first request issues the invoice: its number FA-<year>-<n> comes from one continuous sequence per year (no gap, no duplicate), ' +
      'and what it prints (lines, VAT rates from the catalogue, totals, seller and legal mentions) is recorded with it. Every later request ' +
      'answers the same document, byte for byte, whatever happens to the sale since: a cancellation gets a credit note instead. ' +
      'Reading uses no token up: the link works until the token expires.',
    pathParams: saleInvoiceParams,
    responses: {
      200: { description: 'The invoice; Cache-Control: private, no-store.', file: 'application/pdf' },
      400: failure('The token is longer than 2048 characters, or a query parameter was given.', unknownQueryParameter()),
      ...coreCommon,
      404: failure(
        'The token is malformed, forged, expired or of another action; or its sale does not exist.',
        new HttpError(404, 'invalid_action_token', 'The action token is not valid'),
      ),
      431: requestHeadTooLarge,
      503: failure(
        'The renderers are saturated, or the register cannot issue now (its read model lags behind the log); with Retry-After. Nothing was recorded.',
        new HttpError(503, 'Service Unavailable', 'The document register is busy; retry shortly.'),
      ),
    },
  },
  {
    ...base,
    tags: ['core-sale-actions'],
    method: 'get',
    path: '/api/sale-credit-note/:token/:number',
    operationId: 'getSaleCreditNote',
    summary: 'A credit note of the sale, as a PDF, through an action token of kind invoice',
    description:
      'A credit note AV-<year>-<n> (its own continuous sequence) is issued when products are cancelled after the invoice was issued: ' +
      'it names the invoice, which never changes, and credits the cancelled lines at their invoiced amounts and rates. ' +
      'Its number is in the answer of the cancellation (credit_note).',
    pathParams: saleCreditNoteParams,
    responses: {
      200: { description: 'The credit note; Cache-Control: private, no-store.', file: 'application/pdf' },
      400: failure('The token is longer than 2048 characters, the number is not AV-<year>-<n>, or a query parameter was given.', unknownQueryParameter()),
      ...coreCommon,
      404: failure(
        'The token is malformed, forged, expired or of another action; or the sale has no credit note of that number.',
        new HttpError(404, 'credit_note_not_found', 'The sale 42 has no credit note AV-2026-9'),
      ),
      431: requestHeadTooLarge,
      503: failure(
        'Every document renderer is busy (with Retry-After), or the document could not be rendered.',
        new HttpError(503, 'Service Unavailable', 'Every document renderer is busy; retry shortly.'),
      ),
    },
  },
];
