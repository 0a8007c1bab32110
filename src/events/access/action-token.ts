import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { actionTokenPayload, canonicalBase64url, verifiedPayload, type ActionTokenPayload, type ActionTokenVerification } from './action-token-payload.ts';
import { looksSigned, verifySignedActionToken } from './signed-action-token.ts';

/**
 * Action tokens travel in links sent to customers (invoice, cancel, address, appointment): an
 * expiring payload bound to one sale and one kind of action. The links' paths are logged by every
 * proxy on the way, so a token is opaque: the payload is sealed with AES-256-GCM, whose tag
 * authenticates it as the signature did, under a key derived from the token secret for this use
 * alone. Format: base64url(version byte ‖ 12-byte IV ‖ ciphertext ‖ 16-byte tag), the version byte
 * authenticated with it; no longer than the signed tokens were.
 *
 * Verifying checks the format, the tag and the expiry; the caller checks that the action kind and the
 * sale are the ones of the request, and records the single use (ConsumeActionToken). Tokens in the
 * first, signed format (signed-action-token.ts) are still accepted until they expire.
 */

const version = Buffer.from([2]);
const ivLength = 12;
const tagLength = 16;

const sealingKey = (secret: string | Buffer): Buffer => {
  // An empty key would make every token forgeable: a configuration error, not a bad token.
  if (secret.length === 0) throw new Error('The action token signing secret is empty');
  return Buffer.from(hkdfSync('sha256', secret, 'sav-order-service', 'action-token-v2', 32));
};

export const sealActionToken = (payload: ActionTokenPayload, secret: string | Buffer): string => {
  const iv = randomBytes(ivLength);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secret), iv, { authTagLength: tagLength }).setAAD(version);
  const plaintext = Buffer.from(JSON.stringify(actionTokenPayload.parse(payload)), 'utf8');
  return Buffer.concat([version, iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]).toString('base64url');
};

const openSealed = (token: string, secret: string | Buffer, now: Date): ActionTokenVerification => {
  const key = sealingKey(secret);
  const sealed = canonicalBase64url(token);
  if (!sealed || sealed.length <= version.length + ivLength + tagLength || sealed[0] !== version[0]) return { ok: false, reason: 'malformed' };
  const iv = sealed.subarray(version.length, version.length + ivLength);
  const tag = sealed.subarray(sealed.length - tagLength);
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: tagLength }).setAAD(version).setAuthTag(tag);
  let plaintext: Buffer;
  try {
    plaintext = Buffer.concat([decipher.update(sealed.subarray(version.length + ivLength, sealed.length - tagLength)), decipher.final()]);
  } catch {
    // The tag does not match: altered, or sealed under another secret.
    return { ok: false, reason: 'bad_signature' };
  }
  return verifiedPayload(plaintext, now);
};

export const verifyActionToken = (token: string, secret: string | Buffer, now: Date): ActionTokenVerification =>
  looksSigned(token) ? verifySignedActionToken(token, secret, now) : openSealed(token, secret, now);
