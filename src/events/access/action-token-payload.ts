import { z } from 'zod';
import { positiveId } from '../schema/common-schemas.ts';
import { actionKind } from './events.ts';

/**
 * What an action token carries: one action on one sale, its data, its random ID (the single use is
 * recorded under it) and its lifetime. Both token formats (action-token.ts) carry this JSON.
 */
export const actionTokenPayload = z.object({
  jti: z.string().min(8).max(64),
  action: actionKind,
  saleId: positiveId,
  productIds: z.array(positiveId).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  /** Expiry, unix seconds: the token is refused from this second on. */
  exp: z.number().int(),
  /** Issued at, unix seconds. */
  iat: z.number().int(),
});
export type ActionTokenPayload = z.infer<typeof actionTokenPayload>;

export type ActionTokenRefusal = 'malformed' | 'bad_signature' | 'expired';
export type ActionTokenVerification = { ok: true; payload: ActionTokenPayload } | { ok: false; reason: ActionTokenRefusal };

/** A payload proven ours (signature or authentication tag), read and checked against the clock. */
export const verifiedPayload = (json: Buffer, now: Date): ActionTokenVerification => {
  let payload: ActionTokenPayload;
  try {
    const result = actionTokenPayload.safeParse(JSON.parse(json.toString('utf8')));
    if (!result.success) return { ok: false, reason: 'malformed' };
    payload = result.data;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (Math.floor(now.getTime() / 1000) >= payload.exp) return { ok: false, reason: 'expired' };
  return { ok: true, payload };
};

export const base64url = /^[A-Za-z0-9_-]+$/;

/** Decoding is lenient with the last character's spare bits: only the canonical spelling counts, so that a token has one valid form. */
export const canonicalBase64url = (text: string): Buffer | null => {
  if (!base64url.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
};
