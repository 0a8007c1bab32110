import { z } from 'zod';

/** The path of GET /api/sale-invoice/{token}: the token is checked by its signature, not by its shape. */
export const saleInvoiceParams = z.object({
  token: z
    .string()
    .min(1)
    .max(2048)
    // The shape verifyActionToken reads (a token of another shape is malformed: 404, as a forged one).
    .meta({ pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$' })
    .describe('The action token of kind invoice: base64url(payload).base64url(signature)'),
});
