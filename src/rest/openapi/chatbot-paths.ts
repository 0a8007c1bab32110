import { bodyErrorTexts } from '../middleware/error-handler.ts';
import { z } from 'zod';
import { serverErrorTexts } from '../envelopes.ts';
import type { HttpError } from '../../http/http-error.ts';
import {
  chatbotUnauthorized,
  customerNotFound,
  invalidQuery,
  invalidParameters,
  noOrderForEmail,
  orderNotFound,
  productNotFound,
  chatbotUploadTexts,
  savFileNotStored,
  savNotFound,
} from '../chatbot/chatbot-errors.ts';
import { acceptedMediaFormats } from '../../files/sav-files.ts';
import { savFileUploadMaxBytes } from '../request-body.ts';
import { savFileUploadQuery } from '../sav-files/upload-sav-file.ts';
import { customerDetailsParams, productParams, saleDetailsParams, savRequestBody, savStatusQuery } from '../chatbot/schemas.ts';
import {
  chatbotError,
  customerDetailsResponse,
  productResponse,
  saleDetailsResponse,
  savCreatedMessage,
  savCreatedResponse,
  savFile,
  savRecord,
  savStatusResponse,
} from './chatbot-responses.ts';
import type { ResponseDoc, RouteDoc } from './document.ts';
import { mediaBodyLimitMib } from '../media-input.ts';

/** The chatbot API's routes; the error examples are the routes' own answers, in French. */

export const chatbotComponents = {
  ChatbotError: chatbotError,
  SavRecord: savRecord,
  SavFile: savFile,
  SaleDetails: saleDetailsResponse,
  CustomerDetails: customerDetailsResponse,
  ProductDetails: productResponse,
  SavCreated: savCreatedResponse,
  SavStatus: savStatusResponse,
};

/** The error handler's texts for an oversized body (kept private there; a spec checks they agree). */
const tooLarge = (mib: number) => ({ error: bodyErrorTexts.tooLarge.chatbot(mib)[0], message: bodyErrorTexts.tooLarge.chatbot(mib)[1] });
export const chatbotTooLarge = tooLarge(mediaBodyLimitMib);
export const chatbotNotJson = { error: bodyErrorTexts.notJson.chatbot[0], message: bodyErrorTexts.notJson.chatbot[1] };

const failure = (description: string, answer: Pick<HttpError, 'error' | 'message'>, body: z.ZodType = chatbotError): ResponseDoc => ({
  description,
  body,
  example: { success: false, error: answer.error, message: answer.message },
});

/** The 400 the route answers to this input: the schema's own first issue, as parseInput reports it. */
const refusalOf = (schema: z.ZodType, input: unknown): HttpError => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('The example input of a 400 must be refused by its schema');
  const issue = result.error.issues[0]!;
  return invalidParameters(issue.path.map(String).join('.'), issue);
};

const common: Record<number, ResponseDoc> = {
  401: failure(
    "Missing, unknown or revoked X-API-Token, or another group's token. A token sent as `Authorization: Bearer` instead is told so in `hint`.",
    chatbotUnauthorized(),
    chatbotError.extend({ hint: z.string().optional().describe('present when the token came in Authorization: Bearer rather than X-API-Token') }),
  ),
  500: failure('An unexpected error; no internal detail is given.', serverErrorTexts.chatbot),
};

const success = (description: string, body: z.ZodType): ResponseDoc => ({ description, body });

const base = { tags: ['chatbot'], security: 'apiToken' as const };

export const chatbotRouteDocs = (): RouteDoc[] => [
  {
    ...base,
    method: 'get',
    path: '/api/sale/details/:incrementId',
    operationId: 'getSaleDetails',
    summary: "An order as the customer sees it, with its products' availability and its SAVs",
    pathParams: saleDetailsParams,
    responses: {
      200: success('The order.', saleDetailsResponse),
      400: failure('The increment ID is not 1 to 20 digits.', refusalOf(saleDetailsParams, { incrementId: 'A-12' })),
      ...common,
      404: failure('No order has this increment ID.', orderNotFound('100004512')),
    },
  },
  {
    ...base,
    method: 'get',
    path: '/api/Customer/details/:email',
    operationId: 'getCustomerDetails',
    summary: 'A customer, found by e-mail in any case, with every order and SAV',
    description: 'The capital C is part of the path the chatbot calls.',
    pathParams: customerDetailsParams,
    responses: {
      200: success('The customer.', customerDetailsResponse),
      400: failure('The e-mail is not valid.', refusalOf(customerDetailsParams, { email: 'claire.martin' })),
      ...common,
      404: failure('No customer has this e-mail.', customerNotFound('claire.martin@example.org')),
    },
  },
  {
    ...base,
    method: 'post',
    path: '/api/sav',
    operationId: 'openSav',
    summary: 'A customer opens a SAV',
    description:
      "Exactly one of product_sku and sale_product_id names the product. The e-mail must be the order's customer's (in any case) and the product one of the order's; otherwise nothing is recorded. Unknown keys are ignored.",
    body: savRequestBody,
    // An order of the demo data (`cli demo seed --seed 7`).
    bodyExample: {
      increment_id: '100000003',
      email: 'zbrunet580@example.org',
      request_type: 'damaged_product',
      product_sku: 'PLQ-CCH-VITR-NOI',
      complaint_name: 'Produit défectueux',
      complaint: 'La plaque ne chauffe plus sur le foyer avant gauche.',
    },
    responses: {
      200: {
        ...success('The SAV was recorded.', savCreatedResponse),
        example: { success: true, sav_id: 1, message: savCreatedMessage, files: [] },
        links: {
          // The order's SAVs are in its details. No link to sav-status: its query is one object whose rule
          // ("exactly one of email and increment_id") a link setting one parameter cannot keep (the fuzzer
          // would fill in the other beside it).
          order: { operationId: 'getSaleDetails', parameters: { incrementId: '$request.body#/increment_id' }, description: 'The order, now with this SAV' },
        },
      },
      400: failure('A field is missing or invalid, or the body is declared JSON but malformed; the message names the field.', refusalOf(savRequestBody, {})),
      ...common,
      404: failure(
        "No order has this increment ID with this customer's e-mail (an unknown order and another customer's answer alike), or the order does not contain the product.",
        noOrderForEmail('100004512'),
      ),
      413: failure(`The request body exceeds ${mediaBodyLimitMib} MiB (photos and videos may come as data URLs).`, chatbotTooLarge),
      415: failure('The body is not JSON (JSON sent without a Content-Type, or as text/plain, is read as JSON).', chatbotNotJson),
    },
  },
  {
    ...base,
    method: 'post',
    path: '/api/sav/:savId/files',
    operationId: 'uploadSavFileContent',
    summary: 'Stores one photo or video sent as the request body on a SAV',
    description: `The file itself is the body (up to ${savFileUploadMaxBytes / 1024 / 1024} MiB, uncompressed), written to disk as it arrives: the way for photos and videos too large for data URLs in a JSON body. Its content decides what it is (${acceptedMediaFormats}).`,
    pathParams: z.object({ savId: z.string().describe('The SAV ID') }),
    query: savFileUploadQuery,
    bodyFile: ['image/*', 'video/*', 'application/octet-stream'],
    responses: {
      201: success('Stored and attached.', z.object({ success: z.literal(true), file: savFile })),
      400: failure('The SAV ID or a query parameter is invalid.', invalidQuery(['foo'])),
      ...common,
      404: failure('No SAV has this ID.', savNotFound(404404)),
      413: failure(`The file exceeds ${savFileUploadMaxBytes / 1024 / 1024} MiB.`, tooLarge(savFileUploadMaxBytes / 1024 / 1024)),
      415: failure(
        'The content is not an accepted image or video, or not what it was declared as, or the body is compressed or JSON.',
        chatbotUploadTexts.notMedia(),
      ),
    },
  },
  {
    ...base,
    method: 'get',
    path: '/api/sav/:savId/files/:fileId',
    operationId: 'downloadSavFile',
    summary: "A SAV's stored photo or video",
    description: "The file of a SAV's `files[].download_url`, once its state is stored.",
    pathParams: z.object({ savId: z.string().describe('The SAV ID'), fileId: z.string().describe('The file ID') }),
    responses: {
      200: { description: 'The file, with its content type.', body: z.string().describe("The file's bytes"), mediaTypes: ['image/*', 'video/*'] },
      400: failure('A query parameter was given: this route takes none.', invalidQuery(['foo'])),
      ...common,
      404: failure('No such file, or not stored (yet).', savFileNotStored('12', '00000000-0000-4000-8000-000000000000', null)),
    },
  },
  {
    ...base,
    method: 'get',
    path: '/api/customer/sav-status',
    operationId: 'getSavStatus',
    summary: 'The SAVs of a customer or of an order, optionally of one product',
    description: 'Exactly one of email and increment_id. A known customer or order without SAV answers an empty list.',
    query: savStatusQuery,
    responses: {
      200: success('The SAVs, possibly none.', savStatusResponse),
      400: failure('Neither or both of email and increment_id, or an invalid value.', refusalOf(savStatusQuery, {})),
      ...common,
      404: failure('No customer has this e-mail, or no order this increment ID.', customerNotFound('claire.martin@example.org')),
    },
  },
  {
    ...base,
    method: 'get',
    path: '/api/product/:sku',
    operationId: 'getProduct',
    summary: 'A catalog product and whether it is in stock',
    pathParams: productParams,
    responses: {
      200: success('The product.', productResponse),
      400: failure('The SKU is longer than 64 characters.', refusalOf(productParams, { sku: 'X'.repeat(65) })),
      ...common,
      404: failure('No product has this SKU.', productNotFound('CAN-OSLO-3P-GRY')),
    },
  },
];
