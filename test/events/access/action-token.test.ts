import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signActionToken, verifyActionToken, type ActionTokenPayload } from '../../../src/events/access/action-token.ts';

const now = new Date('2025-03-14T09:30:00.000Z');
const nowSeconds = now.getTime() / 1000;

const fresh = () => {
  const signingKey = randomBytes(32);
  const payload: ActionTokenPayload = {
    jti: randomBytes(12).toString('hex'),
    action: 'address',
    saleId: 1042,
    productIds: [5001, 5002],
    data: { reason: 'moved' },
    iat: nowSeconds - 60,
    exp: nowSeconds + 3600,
  };
  return { signingKey, payload, token: signActionToken(payload, signingKey) };
};

/** Signs with the same HMAC as the module, to build correctly signed tokens it would never issue. */
const signatureFor = (encoded: string, key: Buffer) => createHmac('sha256', key).update(encoded).digest('base64url');

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Replaces one character in the middle of a base64url string with another base64url character. */
const flipMiddle = (text: string) => {
  const index = Math.floor(text.length / 2);
  return text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);
};

describe('signing and verifying an action token', () => {
  it('when the token is intact and not expired, its payload is returned', () => {
    const { signingKey, payload, token } = fresh();
    expect(verifyActionToken(token, signingKey, now)).toEqual({ ok: true, payload });
  });

  it('when the token has the expected shape, it is base64url JSON, a dot and a base64url signature', () => {
    const { payload, token } = fresh();
    const [encoded, signature] = token.split('.');
    expect(JSON.parse(Buffer.from(encoded!, 'base64url').toString('utf8'))).toEqual(payload);
    expect(Buffer.from(signature!, 'base64url')).toHaveLength(32);
  });

  it('when the payload was tampered with, the signature does not match', () => {
    const { signingKey, payload, token } = fresh();
    const signature = token.split('.')[1];
    const forged = `${encode({ ...payload, saleId: 1043 })}.${signature}`;
    expect(verifyActionToken(forged, signingKey, now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('when the signature was tampered with, it does not match', () => {
    const { signingKey, token } = fresh();
    const [encoded, signature] = token.split('.') as [string, string];
    expect(verifyActionToken(`${encoded}.${flipMiddle(signature)}`, signingKey, now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('when the signature is truncated, it does not match', () => {
    const { signingKey, token } = fresh();
    expect(verifyActionToken(token.slice(0, -4), signingKey, now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('when the signature is spelt with non-canonical trailing bits, it does not match', () => {
    const { signingKey, token } = fresh();
    // 32 bytes are 43 base64url characters: the last one carries 2 unused bits, which lenient decoding ignores.
    const last = token.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1]!;
    expect(verifyActionToken(token.slice(0, -1) + sibling, signingKey, now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('when the token was signed with another key, the signature does not match', () => {
    const { token } = fresh();
    expect(verifyActionToken(token, randomBytes(32), now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('when the expiry second is reached, the token has expired', () => {
    const { signingKey, payload } = fresh();
    const token = signActionToken({ ...payload, exp: nowSeconds }, signingKey);
    expect(verifyActionToken(token, signingKey, now)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyActionToken(token, signingKey, new Date(now.getTime() - 1000)).ok).toBe(true);
  });

  it.each([
    ['an empty string', ''],
    ['no dot', 'abc'],
    ['three parts', 'a.b.c'],
    ['an empty payload', '.abc'],
    ['an empty signature', 'abc.'],
    ['characters outside base64url', 'ab+c.de/f'],
  ])('when the token is %s, it is malformed', (_, token) => {
    expect(verifyActionToken(token, randomBytes(32), now)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('when a correctly signed payload is not a valid action payload, it is malformed', () => {
    const { signingKey } = fresh();
    const notJson = Buffer.from('not json').toString('base64url');
    const wrongShape = encode({ jti: 'x', action: 'teleport' });
    for (const encoded of [notJson, wrongShape]) {
      const signature = signatureFor(encoded, signingKey);
      expect(verifyActionToken(`${encoded}.${signature}`, signingKey, now)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('when the signing key is empty, signing fails', () => {
    expect(() => signActionToken(fresh().payload, '')).toThrow(/empty/);
  });
});
