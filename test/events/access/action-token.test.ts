import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ActionTokenPayload } from '../../../src/events/access/action-token-payload.ts';
import { sealActionToken, verifyActionToken } from '../../../src/events/access/action-token.ts';
import { signedActionToken } from '../../support/signed-action-token.ts';

const now = new Date('2025-03-14T09:30:00.000Z');
const nowSeconds = now.getTime() / 1000;

const address = { firstname: 'Claire', lastname: 'Martin', street: ['4 place Bellecour'], postcode: '69002', city: 'Lyon', country_id: 'FR' };

const fresh = (seal: (payload: ActionTokenPayload, key: Buffer) => string = sealActionToken) => {
  const signingKey = randomBytes(32);
  const payload: ActionTokenPayload = {
    jti: randomBytes(12).toString('hex'),
    action: 'address',
    saleId: 1042,
    data: address,
    iat: nowSeconds - 60,
    exp: nowSeconds + 3600,
  };
  return { signingKey, payload, token: seal(payload, signingKey) };
};

/** Replaces one character in the middle of a base64url string with another base64url character. */
const flipMiddle = (text: string) => {
  const index = Math.floor(text.length / 2);
  return text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);
};

/** Every text a reader of the link could get by decoding a base64url run of it, from each of the 4 alignments. */
const decodings = (token: string): string[] =>
  token.split(/[^A-Za-z0-9_-]+/).flatMap((run) => [0, 1, 2, 3].map((offset) => Buffer.from(run.slice(offset), 'base64url').toString('latin1')));

describe('sealing and verifying an action token', () => {
  it('when the token is intact and not expired, its payload is returned', () => {
    const { signingKey, payload, token } = fresh();
    expect(verifyActionToken(token, signingKey, now)).toEqual({ ok: true, payload });
  });

  it('when an address token is read from its link, none of what it carries can be decoded from it', () => {
    const { payload, token } = fresh();
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    const readable = decodings(token).join('\n');
    for (const carried of ['Claire', 'Martin', 'Bellecour', '69002', 'Lyon', 'address', 'saleId', '1042', payload.jti, String(payload.exp)]) {
      expect(readable).not.toContain(carried);
      expect(token).not.toContain(carried);
    }
  });

  it('when the same payload is sealed twice, the two tokens differ (a fresh IV each time) and both verify', () => {
    const { signingKey, payload } = fresh();
    const [first, second] = [sealActionToken(payload, signingKey), sealActionToken(payload, signingKey)];
    expect(first).not.toBe(second);
    expect(verifyActionToken(second, signingKey, now)).toEqual({ ok: true, payload });
  });

  it('when a token is sealed, it is no longer than the signed token of the same payload', () => {
    const { signingKey, payload, token } = fresh();
    expect(token.length).toBeLessThanOrEqual(signedActionToken(payload, signingKey).length);
  });

  it('when any character of the token is changed, it is not valid', () => {
    const { signingKey, token } = fresh();
    expect(verifyActionToken(flipMiddle(token), signingKey, now)).toEqual({ ok: false, reason: 'bad_signature' });
    // The first character holds the format's version: changed, the token is of no format this service knows.
    expect(verifyActionToken(`${token[0] === 'A' ? 'B' : 'A'}${token.slice(1)}`, signingKey, now)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyActionToken(`${token.slice(0, -1)}${token.at(-1) === 'A' ? 'B' : 'A'}`, signingKey, now).ok).toBe(false);
  });

  it('when the token is truncated, it is not valid', () => {
    const { signingKey, token } = fresh();
    for (const cut of [1, 4, 16, 30]) expect(verifyActionToken(token.slice(0, -cut), signingKey, now).ok).toBe(false);
  });

  it('when the token was sealed with another key, it is not valid', () => {
    const { token } = fresh();
    expect(verifyActionToken(token, randomBytes(32), now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('when the token secret signs a token of the earlier format, the sealing key is not that secret (a key of its own)', () => {
    const { signingKey, payload } = fresh();
    const withRawKey = sealActionToken(payload, createHmac('sha256', signingKey).update('unrelated').digest());
    expect(verifyActionToken(withRawKey, signingKey, now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('when the expiry second is reached, the token has expired', () => {
    const { signingKey, payload } = fresh();
    const token = sealActionToken({ ...payload, exp: nowSeconds }, signingKey);
    expect(verifyActionToken(token, signingKey, now)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyActionToken(token, signingKey, new Date(now.getTime() - 1000)).ok).toBe(true);
  });

  it.each([
    ['an empty string', ''],
    ['too short to hold a sealed payload', 'abc'],
    ['three parts', 'a.b.c'],
    ['characters outside base64url', 'ab+c/def'],
  ])('when the token is %s, it is malformed', (_, token) => {
    expect(verifyActionToken(token, randomBytes(32), now)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('when the secret is empty, sealing and verifying fail (a configuration error, not a bad token)', () => {
    const { payload, token } = fresh();
    expect(() => sealActionToken(payload, '')).toThrow(/empty/);
    expect(() => verifyActionToken(token, '', now)).toThrow(/empty/);
  });
});

describe('verifying a token of the earlier, signed format (links already sent)', () => {
  const signatureFor = (encoded: string, key: Buffer) => createHmac('sha256', key).update(encoded).digest('base64url');
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('when the token is intact and not expired, its payload is returned', () => {
    const { signingKey, payload, token } = fresh(signedActionToken);
    expect(token.split('.')).toHaveLength(2);
    expect(verifyActionToken(token, signingKey, now)).toEqual({ ok: true, payload });
  });

  it('when the expiry second is reached, it has expired', () => {
    const { signingKey, payload } = fresh();
    const token = signedActionToken({ ...payload, exp: nowSeconds }, signingKey);
    expect(verifyActionToken(token, signingKey, now)).toEqual({ ok: false, reason: 'expired' });
  });

  it('when the payload was tampered with, the signature does not match', () => {
    const { signingKey, payload, token } = fresh(signedActionToken);
    const forged = `${encode({ ...payload, saleId: 1043 })}.${token.split('.')[1]}`;
    expect(verifyActionToken(forged, signingKey, now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('when the signature was tampered with or truncated, it does not match', () => {
    const { signingKey, token } = fresh(signedActionToken);
    const [encoded, signature] = token.split('.') as [string, string];
    expect(verifyActionToken(`${encoded}.${flipMiddle(signature)}`, signingKey, now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyActionToken(token.slice(0, -4), signingKey, now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('when the signature is spelt with non-canonical trailing bits, it does not match', () => {
    const { signingKey, token } = fresh(signedActionToken);
    // 32 bytes are 43 base64url characters: the last one carries 2 unused bits, which lenient decoding ignores.
    const last = token.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1]!;
    expect(verifyActionToken(token.slice(0, -1) + sibling, signingKey, now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('when the token was signed with another key, the signature does not match', () => {
    const { token } = fresh(signedActionToken);
    expect(verifyActionToken(token, randomBytes(32), now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it.each([
    ['an empty payload', '.abc'],
    ['an empty signature', 'abc.'],
    ['characters outside base64url', 'ab+c.de/f'],
  ])('when the token is %s, it is malformed', (_, token) => {
    expect(verifyActionToken(token, randomBytes(32), now)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('when a correctly signed payload is not a valid action payload, it is malformed', () => {
    const signingKey = randomBytes(32);
    for (const encoded of [Buffer.from('not json').toString('base64url'), encode({ jti: 'x', action: 'teleport' })]) {
      expect(verifyActionToken(`${encoded}.${signatureFor(encoded, signingKey)}`, signingKey, now)).toEqual({ ok: false, reason: 'malformed' });
    }
  });
});
