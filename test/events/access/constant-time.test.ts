import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// Observes the comparison the helpers use, to show that secrets and signatures are compared in constant time.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

// Modules another spec file of the same worker already loaded are loaded again, over the mock.
vi.resetModules();
const { timingSafeEqual } = await import('node:crypto');
const { hashSecret, verifySecret } = await import('../../../src/events/access/access-token.ts');
const { verifyActionToken } = await import('../../../src/events/access/action-token.ts');
const { signedActionToken } = await import('../../support/signed-action-token.ts');

const now = new Date('2025-03-14T09:30:00.000Z');
const nowSeconds = now.getTime() / 1000;

beforeEach(() => {
  vi.mocked(timingSafeEqual).mockClear();
});

describe('constant-time comparisons', () => {
  it('when an access token secret is verified, the hashes are compared with timingSafeEqual', () => {
    const secret = randomBytes(32).toString('base64url');
    expect(verifySecret(secret, hashSecret('another secret'))).toBe(false);
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);
  });

  it('when an action token of the signed format is verified, the signatures are compared with timingSafeEqual', () => {
    const signingKey = randomBytes(32);
    const payload = { jti: randomBytes(12).toString('hex'), action: 'cancel', saleId: 41, iat: nowSeconds, exp: nowSeconds + 600 } as const;
    const token = signedActionToken(payload, signingKey);
    expect(verifyActionToken(token, signingKey, now)).toEqual({ ok: true, payload });
    expect(verifyActionToken(token, randomBytes(32), now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(timingSafeEqual).toHaveBeenCalledTimes(2);
  });
});
