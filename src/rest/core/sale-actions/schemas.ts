import { z } from 'zod';

/** A sealed token (one base64url run), or one of the earlier signed format (two, joined by a dot). */
export const actionTokenPattern = '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)?$';
export const actionTokenFormats =
  'Opaque: base64url of the sealed payload (AES-256-GCM). Links sent before tokens were sealed read base64url(payload).base64url(signature) and are accepted until they expire.';

/**
 * The path of every sale action: the action token, and nothing else. What the action does (the
 * appointment, the address, the products to cancel) travels inside the sealed token, read with the
 * schemas of src/events/access/mint-action-token.ts, the ones the tokens were minted with.
 */
export const actionTokenParams = z.object({
  // A generous bound: a token with an address inside stays well under it; longer is not ours.
  token: z
    .string()
    .min(1)
    .max(4096)
    // The shapes verifyActionToken reads (a token of another shape is malformed: 404, as a forged one).
    .meta({ pattern: actionTokenPattern })
    .describe(`The action token, as the link gives it. ${actionTokenFormats}`),
});
