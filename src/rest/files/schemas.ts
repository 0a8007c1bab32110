import { z } from 'zod';
import { supplierName } from '../../events/catalogue/common-schemas.ts';

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

export const labelLinkQuery = z.object({
  expires: z
    .string()
    .regex(/^[1-9]\d{0,11}$/)
    .optional()
    .describe('With signature: the instant the link stops opening, in unix seconds (24 to 25 hours after get-sales answered it).'),
  signature: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .optional()
    .describe('With expires: HMAC-SHA256 (base64url) over the supplier, the service_order_id and expires. A link carrying both opens without a token.'),
});

/** The answer to a link that was altered, made up or has expired (the same for all, so that none tells which). */
export const labelLinkRefused = z.object({ success: z.literal(false), message: z.string() });
