import { describe, expect, it } from 'vitest';
import {
  labelLinkClockSkewSeconds,
  labelLinkExpiry,
  labelLinkKey,
  labelLinkLifetimeSeconds,
  labelLinkMaxLifetimeSeconds,
  labelLinkQuery,
  signLabelLink,
  verifyLabelLink,
  type LabelLinkTarget,
} from '../../src/labels/label-link-signature.ts';
import { createLabelLinks } from '../../src/labels/label-links.ts';
import { supplierCacheTtlMs } from '../../src/rest/supplier/supplier-cache.ts';

const key = labelLinkKey('a-token-secret-of-at-least-32-characters');
const line: LabelLinkTarget = { supplier: 'supplier-a', serviceOrderId: '100004512_31' };
const signedAt = new Date('2026-10-05T08:20:00.000Z');
const expires = labelLinkExpiry(signedAt);
const signature = signLabelLink(key, line, expires);
const before = new Date((expires - 1) * 1000);

const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const verify = (link: { expires?: string; signature?: string }, target: LabelLinkTarget = line, now: Date = signedAt) =>
  verifyLabelLink(key, target, link, now);
const valid = { expires: String(expires), signature };

describe('label link signatures', () => {
  it('when a link was signed for a line, it opens that line until its expiry', () => {
    expect(verify(valid)).toBe('valid');
    expect(verify(valid, line, before)).toBe('valid');
  });

  it('when the expiry is reached, the link is expired, and so it stays', () => {
    expect(verify(valid, line, new Date(expires * 1000))).toBe('expired');
    expect(verify(valid, line, new Date((expires + 86_400) * 1000))).toBe('expired');
  });

  it('when signed, the expiry is a day later rounded up to the hour, so a line keeps its link for the hour', () => {
    expect(expires % 3600).toBe(0);
    expect(expires - signedAt.getTime() / 1000).toBeGreaterThanOrEqual(labelLinkLifetimeSeconds);
    expect(expires - signedAt.getTime() / 1000).toBeLessThan(labelLinkLifetimeSeconds + 3600);
    expect(labelLinkExpiry(new Date('2026-10-05T08:59:59.000Z'))).toBe(expires);
    expect(labelLinkExpiry(new Date('2026-10-05T09:00:01.000Z'))).toBe(expires + 3600);
  });

  it("when a link is served from supplier-a's cache at the end of its 30 minutes, it still opens for more than 23 hours", () => {
    const servedUntil = new Date(signedAt.getTime() + supplierCacheTtlMs);
    expect(verify(valid, line, servedUntil)).toBe('valid');
    expect(expires * 1000 - servedUntil.getTime()).toBeGreaterThan(23 * 3600 * 1000);
  });

  it('when a link is signed with an expiry beyond the longest lifetime issued (25 h) and a little clock skew, it opens nothing', () => {
    const nowSeconds = signedAt.getTime() / 1000;
    const furthest = nowSeconds + labelLinkMaxLifetimeSeconds + labelLinkClockSkewSeconds;
    const signedFor = (expiry: number) => ({ expires: String(expiry), signature: signLabelLink(key, line, expiry) });

    expect(labelLinkMaxLifetimeSeconds).toBe(25 * 3600);
    expect(verify(signedFor(furthest))).toBe('valid');
    expect(verify(signedFor(furthest + 1))).toBe('beyond_lifetime');
    expect(verify(signedFor(nowSeconds + 10 * 365 * 86_400))).toBe('beyond_lifetime');
    // The same link opens once the clock has come near enough.
    expect(verify(signedFor(furthest + 3600), line, new Date(signedAt.getTime() + 3600_000))).toBe('valid');
  });

  it('when the link is used for another line, another supplier, or the same line under the other supplier, it opens nothing', () => {
    expect(verify(valid, { ...line, serviceOrderId: '100004512_32' })).toBe('invalid');
    expect(verify(valid, { ...line, serviceOrderId: '10000451_231' })).toBe('invalid');
    expect(verify(valid, { ...line, supplier: 'supplier-b' })).toBe('invalid');
  });

  it('when the expiry is pushed back, even by a second or by a leading zero, the signature no longer matches', () => {
    expect(verify({ ...valid, expires: String(expires + 1) })).toBe('invalid');
    expect(verify({ ...valid, expires: String(expires + 86_400) })).toBe('invalid');
    expect(verify({ ...valid, expires: `0${expires}` })).toBe('invalid');
  });

  it.each([
    ['one character changed', `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`],
    ['truncated', signature.slice(0, 42)],
    ['lengthened', `${signature}A`],
    ['hex instead of base64url', Buffer.from(signature, 'base64url').toString('hex')],
    ['base64 with padding', `${Buffer.from(signature, 'base64url').toString('base64')}`],
    ['another spelling of the same bytes (spare bits set)', `${signature.slice(0, 42)}${base64url[base64url.indexOf(signature[42]!) ^ 1]}`],
    ['empty', ''],
  ])('when the signature is %s, the link opens nothing', (_case, altered) => {
    expect(altered).not.toBe(signature);
    expect(verify({ ...valid, signature: altered })).toBe('invalid');
  });

  it('when either parameter is missing or malformed, the link opens nothing', () => {
    expect(verify({ signature })).toBe('invalid');
    expect(verify({ expires: String(expires) })).toBe('invalid');
    expect(verify({})).toBe('invalid');
    expect(verify({ ...valid, expires: `${expires}.0` })).toBe('invalid');
    expect(verify({ ...valid, expires: '-1' })).toBe('invalid');
  });

  it('when signed with another secret, the link opens nothing; an empty secret signs nothing', () => {
    const other = labelLinkKey('another-token-secret-of-32-characters!!');
    expect(verifyLabelLink(other, line, valid, signedAt)).toBe('invalid');
    expect(() => labelLinkKey('')).toThrow(/empty/);
  });

  it('when written as a query, it carries expires then signature, nothing else', () => {
    expect(labelLinkQuery(key, line, expires)).toBe(`?expires=${expires}&signature=${signature}`);
  });
});

describe('the label links of a listing', () => {
  it('when a line is listed twice within the hour, it gets the same link; the next hour, a new one that also verifies', () => {
    let now = signedAt;
    const links = createLabelLinks({ key, supplier: 'supplier-a', clock: { now: () => now } });

    const first = links.query(line.serviceOrderId, links.expiresNow());
    now = new Date('2026-10-05T08:59:00.000Z');
    const again = links.query(line.serviceOrderId, links.expiresNow());
    now = new Date('2026-10-05T09:30:00.000Z');
    const later = links.query(line.serviceOrderId, links.expiresNow());

    expect(again).toBe(first);
    expect(first).toBe(labelLinkQuery(key, line, expires));
    expect(later).toBe(labelLinkQuery(key, line, expires + 3600));
  });

  it('when more lines are listed than it keeps signatures for, every link is still right', () => {
    const links = createLabelLinks({ key, supplier: 'supplier-b', clock: { now: () => signedAt }, maxEntries: 2 });
    const ids = ['1_1', '1_2', '1_3', '1_1', '1_4'];
    for (const serviceOrderId of ids) {
      expect(links.query(serviceOrderId, expires)).toBe(labelLinkQuery(key, { supplier: 'supplier-b', serviceOrderId }, expires));
    }
  });
});
