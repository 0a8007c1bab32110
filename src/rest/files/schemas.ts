import { z } from 'zod';
import { supplierName } from '../../events/schema/common-schemas.ts';
import { documentedAs } from '../documented-as.ts';

/**
 * GET /api/files/labels/{supplier}/{service_order_id}.pdf, as parsed at the edge and printed in the
 * OpenAPI document. Other query parameters are ignored, as they always were on this route: a link is
 * opened by browsers and print tools that may add their own, and none of them widens what opens.
 */

export const labelFileParams = z.object({
  supplier: supplierName.describe('The supplier whose line it is; only its own labels open.'),
  service_order_id: z
    .string()
    .regex(/^\d+_\d+$/)
    .describe('The line: <increment_id>_<sale_product_id>.'),
});

/**
 * The link's shapes matter only where the link is the credential: sent with the supplier's Bearer
 * token, a link that does not verify, malformed or not, is left to the token (the label opens). A JSON
 * Schema cannot make a pattern depend on a header, so the document states the shapes in words and
 * types the values as text: a pattern there would call "invalid" requests the route rightly serves.
 */
const linkText = { type: 'string' };

export const labelLinkQuery = z.object({
  expires: documentedAs(
    z
      .string()
      .regex(/^[1-9]\d{0,11}$/)
      .optional(),
    linkText,
  ).describe(
    'With signature: the instant the link stops opening, in unix seconds (24 to 25 hours after get-sales answered it), digits without a leading zero.',
  ),
  signature: documentedAs(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/)
      .optional(),
    linkText,
  ).describe(
    'With expires: HMAC-SHA256 over the supplier, the service_order_id and expires, 43 base64url characters. A link carrying both opens without a token. A link of another shape is one that does not verify: 403 without a token; with the supplier’s Bearer token, the token decides.',
  ),
});

/** The answer to a link that was altered, made up or has expired (the same for all, so that none tells which). */
export const labelLinkRefused = z.object({ success: z.literal(false), message: z.string() });
