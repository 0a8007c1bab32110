import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { positiveId } from '../catalogue/common-schemas.ts';
import { actionKind } from './events.ts';

/**
 * Action tokens travel in links sent to customers (invoice, cancel, address, appointment): a signed,
 * expiring payload bound to one sale and one kind of action. Format: base64url(JSON payload) + '.' +
 * base64url(HMAC-SHA256 of the encoded payload). Verifying checks the format, the signature (in
 * constant time) and the expiry; the caller checks that the action kind and the sale are the ones of
 * the request, and records the single use (ConsumeActionToken).
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

export type ActionTokenVerification = { ok: true; payload: ActionTokenPayload } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

const base64url = /^[A-Za-z0-9_-]+$/;

const signatureOf = (encodedPayload: string, secret: string | Buffer): Buffer => {
  // An empty key would make every token forgeable: a configuration error, not a bad token.
  if (secret.length === 0) throw new Error('The action token signing secret is empty');
  return createHmac('sha256', secret).update(encodedPayload, 'utf8').digest();
};

export const signActionToken = (payload: ActionTokenPayload, secret: string | Buffer): string => {
  const encoded = Buffer.from(JSON.stringify(actionTokenPayload.parse(payload)), 'utf8').toString('base64url');
  return `${encoded}.${signatureOf(encoded, secret).toString('base64url')}`;
};

const parsePayload = (encoded: string): ActionTokenPayload | null => {
  try {
    const result = actionTokenPayload.safeParse(JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
};

export const verifyActionToken = (token: string, secret: string | Buffer, now: Date): ActionTokenVerification => {
  const parts = token.split('.');
  if (parts.length !== 2) return { ok: false, reason: 'malformed' };
  const [encoded, signature] = parts as [string, string];
  if (!base64url.test(encoded) || !base64url.test(signature)) return { ok: false, reason: 'malformed' };
  const expected = signatureOf(encoded, secret);
  const given = Buffer.from(signature, 'base64url');
  // Decoding is lenient with the last character's spare bits: only the canonical spelling is accepted,
  // so that one signed token has exactly one valid form.
  if (given.toString('base64url') !== signature) return { ok: false, reason: 'bad_signature' };
  // timingSafeEqual needs equal lengths; a signature of another length cannot be ours anyway.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
  // The payload is parsed only once the signature proves it is ours.
  const payload = parsePayload(encoded);
  if (!payload) return { ok: false, reason: 'malformed' };
  if (Math.floor(now.getTime() / 1000) >= payload.exp) return { ok: false, reason: 'expired' };
  return { ok: true, payload };
};
