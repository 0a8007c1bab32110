import { z } from 'zod';
import { actionTokenFormats, actionTokenPattern } from '../sale-actions/schemas.ts';

/** The path of GET /api/sale-invoice/{token}: the token is checked by its signature, not by its shape. */
export const saleInvoiceParams = z.object({
  token: z
    .string()
    .min(1)
    .max(2048)
    // The shapes verifyActionToken reads (a token of another shape is malformed: 404, as a forged one).
    .meta({ pattern: actionTokenPattern })
    .describe(`The action token of kind invoice, as the link gives it. ${actionTokenFormats}`),
});

/** The path of GET /api/sale-credit-note/{token}/{number}. */
export const saleCreditNoteParams = saleInvoiceParams.extend({
  number: z
    .string()
    .regex(/^AV-\d{4}-[1-9]\d{0,9}$/, 'must be a credit note number, AV-<year>-<n>')
    .describe('The credit note number, AV-<year>-<n>, as the cancellation answered it'),
});
