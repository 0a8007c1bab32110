import { createHmac, timingSafeEqual } from 'node:crypto';
import { base64url, canonicalBase64url, verifiedPayload, type ActionTokenVerification } from './action-token-payload.ts';

/**
 * The format action tokens were minted in first: base64url(JSON payload) + '.' + base64url(HMAC-SHA256
 * of the encoded payload, keyed with the token secret). Readable by anyone holding the link (an
 * address change carried the customer's name and street in a URL path), so no longer minted; still
 * verified, because links sent in it wait in customers' mailboxes. None lives longer than a year
 * (maxActionTokenTtlSeconds): a year after sealed tokens were first minted, this file can go.
 */

const signatureOf = (encodedPayload: string, secret: string | Buffer): Buffer => {
  // An empty key would make every token forgeable: a configuration error, not a bad token.
  if (secret.length === 0) throw new Error('The action token signing secret is empty');
  return createHmac('sha256', secret).update(encodedPayload, 'utf8').digest();
};

/** True for a token of this format's shape (two base64url parts): those are verified here, anything else as a sealed token. */
export const looksSigned = (token: string): boolean => token.includes('.');

export const verifySignedActionToken = (token: string, secret: string | Buffer, now: Date): ActionTokenVerification => {
  const parts = token.split('.');
  if (parts.length !== 2) return { ok: false, reason: 'malformed' };
  const [encoded, signature] = parts as [string, string];
  if (!base64url.test(encoded) || !base64url.test(signature)) return { ok: false, reason: 'malformed' };
  const expected = signatureOf(encoded, secret);
  const given = canonicalBase64url(signature);
  // timingSafeEqual needs equal lengths; a signature of another length cannot be ours anyway.
  if (!given || given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
  // The payload is read only once the signature proves it is ours.
  return verifiedPayload(Buffer.from(encoded, 'base64url'), now);
};
