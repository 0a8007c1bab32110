import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatAccessToken, hashSecret, parseAccessToken, verifySecret } from '../../../src/events/access/access-token.ts';

const freshToken = () => {
  const tokenId = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { tokenId, secret, raw: formatAccessToken(tokenId, secret) };
};

describe('hashing a secret', () => {
  it('when a secret is hashed, the hash is its SHA-256 in lowercase hex', () => {
    const { secret } = freshToken();
    expect(hashSecret(secret)).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(hashSecret(secret)).toMatch(/^[a-f0-9]{64}$/);
  });
});

describe('parsing a raw token', () => {
  it('when the token has our shape, its ID and secret are returned', () => {
    const { tokenId, secret, raw } = freshToken();
    expect(parseAccessToken(raw)).toEqual({ tokenId, secret });
  });

  it.each([
    ['an empty string', ''],
    ['no separator', 'abcdef0123456789'],
    ['three parts', `abcdef0123456789.${'A'.repeat(43)}.x`],
    ['an uppercase ID', `ABCDEF0123456789.${'A'.repeat(43)}`],
    ['a short ID', `abcdef012345678.${'A'.repeat(43)}`],
    ['a short secret', `abcdef0123456789.${'A'.repeat(42)}`],
    ['a secret with padding', `abcdef0123456789.${'A'.repeat(42)}=`],
    ['a secret with characters outside base64url', `abcdef0123456789.${'A'.repeat(42)}+`],
  ])('when the token has %s, it is not a token', (_, raw) => {
    expect(parseAccessToken(raw)).toBeNull();
  });
});

describe('verifying a secret', () => {
  it('when the secret matches the stored hash, it is verified', () => {
    const { secret } = freshToken();
    expect(verifySecret(secret, hashSecret(secret))).toBe(true);
  });

  it('when the secret differs from the one hashed, it is not verified', () => {
    const { secret } = freshToken();
    expect(verifySecret(freshToken().secret, hashSecret(secret))).toBe(false);
  });

  it('when the stored hash is not a SHA-256 hex digest, it is not verified', () => {
    const { secret } = freshToken();
    expect(verifySecret(secret, hashSecret(secret).slice(0, 62))).toBe(false);
    expect(verifySecret(secret, hashSecret(secret).toUpperCase())).toBe(false);
  });
});
