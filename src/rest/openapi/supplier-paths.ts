import { bodyErrorTexts } from '../middleware/error-handler.ts';
import { z } from 'zod';
import { supplierName } from '../../events/schema/common-schemas.ts';
import {
  getSalesHeaders,
  getSalesQuery,
  getSalesResponse,
  refuseSaleBody,
  serviceOrderBody,
  shipSaleBody,
  supplierResult,
  supplierUnauthorized,
} from '../supplier/schemas.ts';
import { invalidBodyField, invalidServiceOrderId, orderNotFoundOrProcessed, supplierTexts, unauthorized } from '../supplier/supplier-answers.ts';
import { serverErrorTexts } from '../envelopes.ts';
import type { ResponseDoc, RouteDoc } from './document.ts';
import { supplierWebhookRouteDocs } from './supplier-webhook-paths.ts';

/** The supplier API's routes, described from the schemas and answers the routes use. */

const unauthorizedAnswer = unauthorized();

/** The error handler's text for an oversized body (kept private there; a spec checks they agree). */
export const supplierTooLargeMessage = bodyErrorTexts.tooLarge.supplier()[1];
export const supplierNotJsonMessage = bodyErrorTexts.notJson.supplier[1];

/** The 401 message is fixed: the suppliers' clients compare it. */
export const supplierUnauthorizedBody = supplierUnauthorized.extend({
  error: z.literal(unauthorizedAnswer.error),
  message: z.literal(unauthorizedAnswer.message),
});

/** The supplier envelope of every error but the 401. */
export const supplierFailureBody = supplierResult.extend({ success: z.literal(false) });

export const supplierComponents = {
  SupplierSaleLines: getSalesResponse,
  SupplierResult: supplierResult,
  SupplierFailure: supplierFailureBody,
  SupplierUnauthorized: supplierUnauthorizedBody,
};

const failure = (description: string, message: string): ResponseDoc => ({
  description,
  body: supplierFailureBody,
  example: { success: false, message },
});

/** The supplier envelope's 500: no internal detail (the label files answer it too). */
export const supplierServerError = failure('An unexpected error; no internal detail is given.', serverErrorTexts.supplier.message);

const commonResponses: Record<number, ResponseDoc> = {
  401: {
    description: "Missing, unknown or revoked token, or another supplier's.",
    body: supplierUnauthorizedBody,
    example: { error: unauthorizedAnswer.error, message: unauthorizedAnswer.message },
  },
  500: supplierServerError,
};

const bodyResponses: Record<number, ResponseDoc> = {
  400: failure('The service_order_id is missing or malformed, or the body is declared JSON but malformed.', invalidServiceOrderId().message),
  413: failure('The request body exceeds 1 MiB.', supplierTooLargeMessage),
  415: failure('The body is not JSON (JSON sent without a Content-Type, or as text/plain, is read as JSON).', supplierNotJsonMessage),
};

const routesOf = (supplier: z.infer<typeof supplierName>): RouteDoc[] => {
  const base = `/api/${supplier}`;
  const id = supplier === 'supplier-a' ? 'SupplierA' : 'SupplierB';
  const common = { tags: [supplier], security: 'supplierBearer' as const };
  return [
    {
      ...common,
      method: 'get',
      path: `${base}/get-sales`,
      operationId: `getSales${id}`,
      summary: `The open lines of ${supplier}, one page at a time`,
      description:
        supplier === 'supplier-a'
          ? 'Lines not shipped nor cancelled (acknowledged ones stay until shipped). Each distinct query is cached 30 minutes, never past a change of the lines.'
          : 'Lines not shipped nor cancelled (acknowledged ones stay until shipped). Always read fresh: X-Cache is always MISS.',
      query: getSalesQuery,
      responses: {
        200: {
          description: 'One page of lines, [] past the end.',
          body: getSalesResponse,
          headers: getSalesHeaders,
          links: {
            acknowledge: {
              operationId: `acknowledgeSale${id}`,
              requestBody: { service_order_id: '$response.body#/0/service_order_id' },
              description: 'The first line of the page',
            },
            ship: { operationId: `shipSale${id}`, requestBody: { service_order_id: '$response.body#/0/service_order_id' } },
            label: {
              operationId: 'getShippingLabel',
              parameters: { supplier, service_order_id: '$response.body#/0/service_order_id' },
              description: "The first line's label, with the token",
            },
          },
        },
        400: failure('A query parameter cannot be read; the message names it.', 'Invalid page: expected a positive integer'),
        ...commonResponses,
      },
    },
    {
      ...common,
      method: 'post',
      path: `${base}/acknowledge-sale`,
      operationId: `acknowledgeSale${id}`,
      summary: 'The supplier confirms it received the line',
      body: serviceOrderBody,
      responses: {
        200: { description: 'Acknowledged.', body: supplierResult, example: { success: true, message: supplierTexts.acknowledged } },
        ...bodyResponses,
        ...commonResponses,
        404: failure("Unknown, the other supplier's, cancelled, shipped or already acknowledged.", orderNotFoundOrProcessed().message),
      },
    },
    {
      ...common,
      method: 'post',
      path: `${base}/ship-sale`,
      operationId: `shipSale${id}`,
      summary: 'The line leaves the supplier',
      description:
        `Nothing deliverable (unknown, the other supplier's, refused, cancelled or already shipped) is a 200 with success false: "${supplierTexts.nothingDeliverable}". ` +
        "The legacy body is the service_order_id alone; a supplier shipping with its own carrier adds carrier and tracking_number (together) and optionally tracking_url: the customer's lookups then show them in place of our label's. Empty or null tracking fields count as absent.",
      body: shipSaleBody,
      responses: {
        200: {
          description: 'Shipped, or success false when nothing was deliverable.',
          body: supplierResult,
          example: { success: true, message: supplierTexts.shipped },
        },
        ...bodyResponses,
        400: failure(
          'The service_order_id is missing or malformed (its legacy message), or a tracking field cannot be read (the message names it), or the body is declared JSON but malformed.',
          invalidBodyField('tracking_number', 'carrier and tracking_number go together').message,
        ),
        ...commonResponses,
      },
    },
    {
      ...common,
      method: 'post',
      path: `${base}/refuse-sale`,
      operationId: `refuseSale${id}`,
      summary: 'The supplier will not ship the line',
      description:
        'The line leaves the feed and every lookup shows it refused with the reason; staff then cancel it (with its refund) or hand it to the other supplier. ' +
        'An open line of this supplier, acknowledged or not, can be refused once; it can then no longer be acknowledged nor shipped by this supplier.',
      body: refuseSaleBody,
      responses: {
        200: { description: 'Refused.', body: supplierResult, example: { success: true, message: supplierTexts.refused } },
        ...bodyResponses,
        400: failure(
          'The service_order_id is missing or malformed (its legacy message), the reason is not one of the four, or the comment is missing with reason other or longer than 1000 characters (the message names the field).',
          invalidBodyField('comment', 'a comment is required with reason other').message,
        ),
        ...commonResponses,
        404: failure("Unknown, the other supplier's, cancelled, shipped or already refused: nothing is recorded.", orderNotFoundOrProcessed().message),
      },
    },
    ...supplierWebhookRouteDocs(supplier, id, common, { 413: bodyResponses[413]!, 415: bodyResponses[415]!, ...commonResponses }),
  ];
};

export const supplierRouteDocs = (): RouteDoc[] => supplierName.options.flatMap(routesOf);
