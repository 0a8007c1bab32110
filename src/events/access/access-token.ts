import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * API access tokens are handed to clients as `<tokenId>.<secret>`: the ID names the token's stream
 * (group, label, revocation), the secret proves possession. Only the SHA-256 of the secret is stored,
 * so a copy of the event store does not give access. The secret is 32 random bytes, so a plain hash
 * (no salt, no slow KDF) is enough: there is nothing to guess by brute force.
 */

export const tokenIdPattern = /^[a-z0-9]{16}$/;
/** 32 bytes in base64url without padding: 43 characters. */
const secretPattern = /^[A-Za-z0-9_-]{43}$/;
const hashPattern = /^[a-f0-9]{64}$/;

export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

export const formatAccessToken = (tokenId: string, secret: string): string => `${tokenId}.${secret}`;

/** Splits a raw token; null when it does not have the shape of a token we issue. */
export const parseAccessToken = (raw: string): { tokenId: string; secret: string } | null => {
  const parts = raw.split('.');
  if (parts.length !== 2) return null;
  const [tokenId, secret] = parts as [string, string];
  if (!tokenIdPattern.test(tokenId) || !secretPattern.test(secret)) return null;
  return { tokenId, secret };
};

/** Whether `secret` hashes to `hash`, compared in constant time so that timing does not leak the hash. */
export const verifySecret = (secret: string, hash: string): boolean => {
  if (!hashPattern.test(hash)) return false;
  const actual = createHash('sha256').update(secret, 'utf8').digest();
  return timingSafeEqual(actual, Buffer.from(hash, 'hex'));
};
