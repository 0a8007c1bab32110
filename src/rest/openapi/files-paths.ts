import { fileNotFound, invalidLink, unauthorized } from '../files/file-answers.ts';
import { labelFileParams, labelLinkQuery, labelLinkRefused } from '../files/schemas.ts';
import type { RouteDoc } from './document.ts';
import { supplierFailureBody, supplierServerError, supplierUnauthorizedBody } from './supplier-paths.ts';

/** GET /api/files/labels/...: the label PDF that get-sales links to (files/routes.ts). */

export const filesComponents = { LabelLinkRefused: labelLinkRefused };

export const filesRouteDocs = (): RouteDoc[] => [
  {
    method: 'get',
    path: '/api/files/labels/:supplier/:service_order_id.pdf',
    operationId: 'getShippingLabel',
    summary: "A supplier line's shipping label (A6 PDF), rendered on first demand",
    description:
      "Opened by the link_to_label of get-sales as it is (signed: expires and signature), with no header, until it expires; or, as always, with the supplier's Bearer token and no query. A link that does not verify is refused with 403 whatever the reason (altered, another line's or supplier's, expired): take a fresh one from get-sales. With an Authorization header, a link that does not verify leaves the token to decide.",
    tags: ['files'],
    security: 'supplierBearer',
    securityOptional: true,
    pathParams: labelFileParams,
    query: labelLinkQuery,
    responses: {
      200: { description: 'The label; Cache-Control: private, no-store.', file: 'application/pdf' },
      401: {
        description: 'No valid signed link, and a missing, unknown or revoked token, or one of another group.',
        body: supplierUnauthorizedBody,
        example: { error: unauthorized().error, message: unauthorized().message },
      },
      403: {
        description: 'A signed link that does not verify, sent without an Authorization header.',
        body: labelLinkRefused,
        example: { success: false, message: invalidLink().message },
      },
      404: {
        description: "No such supplier line, a line of own stock, another supplier's line under a token, or a path of another shape.",
        body: supplierFailureBody,
        example: { success: false, message: fileNotFound().message },
      },
      500: supplierServerError,
    },
  },
];
