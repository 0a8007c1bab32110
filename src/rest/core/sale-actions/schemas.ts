import { z } from 'zod';

/**
 * The path of every sale action: the action token, and nothing else. What the action does (the
 * appointment, the address, the products to cancel) travels inside the signed token, read with the
 * schemas of src/events/access/mint-action-token.ts, the ones the tokens were minted with.
 */
export const actionTokenParams = z.object({
  // A generous bound: a token with an address inside stays well under it; longer is not ours.
  token: z
    .string()
    .min(1)
    .max(4096)
    // The shape verifyActionToken reads (a token of another shape is malformed: 404, as a forged one).
    .meta({ pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$' })
    .describe('The action token: base64url(payload).base64url(signature)'),
});
