import { z } from 'zod';
import { orderImportJsonSchema } from '../../contracts/json-schemas.ts';
import { orderImportPayload } from '../../contracts/order-import.ts';
import { contactLeadBody } from '../core/leads/schemas.ts';
import { invalidRequest, orderConflict } from '../core/orders/order-errors.ts';
import { productSearchBody } from '../core/orders/schemas.ts';
import { HttpError } from '../../http/http-error.ts';
import { coreBase, coreBodyFailures, coreCommon, coreError, failure, refusalOf } from './core-failures.ts';
import { orderImportExample, orderImportedExample, productSearchExample } from './core-examples.ts';
import { coreLeadRecorded, coreOrderImported, coreProductFound } from './core-responses.ts';
import type { RouteDoc } from './document.ts';

/** The order import and the package search (core/orders/routes.ts), the contact leads (core/leads/routes.ts). */

const orderConflictBody = coreError.extend({
  sale_id: z.number().int(),
  increment_id: z.string(),
  sale_product_ids: z.array(z.number().int()),
  differences: z.array(z.string()).describe('The fields whose values differ from the recorded import'),
});

export const coreOrdersComponents = {
  // The order-import contract as `cli orders schema` prints it: what a client sends, unknown fields accepted.
  CoreOrderImport: { schema: orderImportPayload, jsonSchema: orderImportJsonSchema() },
  CoreOrderImported: coreOrderImported,
  CoreOrderConflict: orderConflictBody,
};

const pagingHeaders = z.object({
  'X-Total-Count': z.string().regex(/^\d+$/).describe('Every match, whatever the page'),
  'X-Page': z.string().regex(/^\d+$/).optional().describe('With page or page_size'),
  'X-Page-Size': z.string().regex(/^\d+$/).optional().describe('With page or page_size'),
});

export const coreOrdersRouteDocs = (): RouteDoc[] => [
  {
    ...coreBase,
    tags: ['core-orders'],
    method: 'post',
    path: '/api/api-add-new-order-api-shopping',
    operationId: 'importOrder',
    summary: 'Imports one order (the order-import contract)',
    description:
      'Every field of the contract is validated as strictly as the contract says; fields beyond it, at any level, are accepted and recorded with the order for audit, never acted on. The supplier lines exist at once; their labels are rendered right after the answer.',
    body: orderImportPayload,
    bodyExample: orderImportExample,
    responses: {
      201: {
        description: 'Recorded; Location names the sale.',
        body: coreOrderImported,
        example: orderImportedExample,
        headers: z.object({ Location: z.string().describe('/api/sale/{sale_id}') }),
        links: {
          sale: { operationId: 'getSale', parameters: { id: '$response.body#/sale_id' }, description: 'The imported sale' },
          saleByIncrementId: { operationId: 'getSaleByIncrementId', parameters: { incrementId: '$response.body#/increment_id' } },
          refunds: { operationId: 'getSaleRefunds', parameters: { id: '$response.body#/sale_id' } },
          rdvConfig: { operationId: 'getSaleRdvConfig', parameters: { id: '$response.body#/sale_id' } },
          openSav: {
            operationId: 'createSavForSaleProduct',
            requestBody: {
              saleProductId: '$response.body#/sale_product_ids/0',
              data: { complaint: 'Un pied est cassé.', complaint_name: 'Produit endommagé', sav_type: 'repair' },
            },
            description: 'A SAV on the first product of the imported sale',
          },
        },
      },
      200: { description: 'The same order was imported before: nothing recorded (`created: false`).', body: coreOrderImported },
      400: failure(
        'A field is missing or invalid, the lines (price x quantity) and the shipping add up to more than 1,000,000.00, the body is declared JSON but malformed, or a query parameter was given; the message names the field.',
        refusalOf(orderImportPayload, { ...orderImportExample, items: [{ ...orderImportExample.items[0], qty_ordered: 0 }] }, invalidRequest),
      ),
      ...coreCommon,
      409: failure(
        'The increment ID was imported before with other content: nothing changed, the differing fields are listed.',
        orderConflict({ saleId: 61, incrementId: '100000061', saleProductIds: [77] }, ['grand_total']),
        orderConflictBody,
      ),
      ...coreBodyFailures(),
    },
  },
  {
    ...coreBase,
    tags: ['core-orders'],
    method: 'post',
    path: '/api/search-ean14-product-colis',
    operationId: 'searchProducts',
    summary: "The package scanner's lookup: products by EAN14 or SKU, or every product",
    description:
      '`sku` (trimmed) equals an EAN14 or a SKU; no `sku`: every product. All matches, unless `page` or `page_size` asks for a page (50 per page by default, at most 100). No body at all reads as {}.',
    body: productSearchBody,
    bodyOptional: true,
    bodyExample: { sku: '03762073304207', columns: ['sku', 'name', 'price', 'package_count'] },
    responses: {
      200: { description: 'The matching products ([] when none).', body: z.array(coreProductFound), example: productSearchExample, headers: pagingHeaders },
      400: failure(
        'A field is invalid or unknown (a column or sort key outside the list), or a query parameter was given.',
        refusalOf(productSearchBody, { columns: ['colour'] }, invalidRequest),
      ),
      ...coreCommon,
      ...coreBodyFailures(),
    },
  },
  {
    ...coreBase,
    tags: ['core-leads'],
    method: 'post',
    path: '/api/contact-lead',
    operationId: 'contactLead',
    summary: 'Records a contact lead; the team is e-mailed by the outbox job',
    description:
      '`name` and `email` required; `phone` and `project_name` optional (absent, null or blank: not given). Control characters are refused: the values go into mail headers. Unknown keys are ignored.',
    body: contactLeadBody,
    bodyExample: { name: 'Zoé Brunet', email: 'zbrunet580@example.org', phone: '+33 6 31 93 63 21', project_name: 'Cuisine complète' },
    responses: {
      201: {
        description: 'Recorded.',
        body: coreLeadRecorded,
        example: { success: true, lead_id: '8f05df06-e7db-4fba-94c9-7a4eb2d1f134', message: 'Lead recorded; the team will be notified by e-mail' },
      },
      400: failure(
        'A field is missing or invalid, or a query parameter was given; the message names the field.',
        new HttpError(400, 'invalid_request', 'email: must be a valid e-mail address'),
      ),
      ...coreCommon,
      ...coreBodyFailures(),
    },
  },
];
