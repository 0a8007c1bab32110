import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { SupplierName } from '../events/schema/common-schemas.ts';

/**
 * Signed label links, as object stores presign their URLs: `link_to_label` carries
 * `?expires=<unix seconds>&signature=<base64url>`, the HMAC-SHA256 of the supplier, the line
 * (service_order_id) and the expiry, so that the link opens that one label, without a token, until it
 * expires. Nothing is stored: a link is checked by signing again. The key is derived from TOKEN_SECRET
 * (HKDF, its own label), so that a label signature can never pass for an action token's, nor the other
 * way round; changing TOKEN_SECRET voids every link handed out.
 */

/**
 * A link stays valid at least a day: far beyond the 30 minutes supplier-a's answers may be served from
 * its cache, so that a link read from a cached answer still opens for the rest of a working day.
 */
export const labelLinkLifetimeSeconds = 24 * 60 * 60;

/**
 * Expiries are rounded up to the next whole hour (links live 24 to 25 hours): a line's link stays the
 * same for an hour, so repeated polls answer the same URLs, and each is signed once per hour.
 */
export const labelLinkExpiryStepSeconds = 60 * 60;

/**
 * The furthest expiry a link signed now can carry (a day, rounded up to the hour), plus the clocks
 * of other instances running a little ahead. A link whose expiry lies beyond is refused even when its
 * signature matches: no link the service hands out lives longer, and one that would (a signature made
 * with a leaked key, or by a bug) must not open a label for years.
 */
export const labelLinkMaxLifetimeSeconds = labelLinkLifetimeSeconds + labelLinkExpiryStepSeconds;
export const labelLinkClockSkewSeconds = 5 * 60;

export type LabelLinkTarget = { supplier: SupplierName; serviceOrderId: string };

/** `beyond_lifetime`: signed, but expiring later than any link the service issues. Answered as `invalid`; told apart in the log. */
export type LabelLinkVerdict = 'valid' | 'invalid' | 'expired' | 'beyond_lifetime';

/**
 * The signing key of label links, derived once from the token secret. A key object: an HMAC made with
 * it skips copying the key in (a page of get-sales signs up to 100 links).
 */
export const labelLinkKey = (tokenSecret: string): KeyObject => {
  // An empty key would make every link forgeable: a configuration error, not a bad link.
  if (tokenSecret.length === 0) throw new Error('The label link signing secret is empty');
  return createSecretKey(Buffer.from(hkdfSync('sha256', tokenSecret, 'sav-order-service', 'label-link-v1', 32)));
};

/** The expiry of a link signed at `now`: a day later, rounded up to the hour. */
export const labelLinkExpiry = (now: Date): number => {
  const earliest = Math.floor(now.getTime() / 1000) + labelLinkLifetimeSeconds;
  return Math.ceil(earliest / labelLinkExpiryStepSeconds) * labelLinkExpiryStepSeconds;
};

// The parts cannot run into one another: a supplier name and a service_order_id hold no newline.
const signed = (key: KeyObject, { supplier, serviceOrderId }: LabelLinkTarget, expires: number): Buffer =>
  createHmac('sha256', key).update(`${supplier}\n${serviceOrderId}\n${expires}`, 'utf8').digest();

export const signLabelLink = (key: KeyObject, target: LabelLinkTarget, expires: number): string => signed(key, target, expires).toString('base64url');

/** `?expires=...&signature=...`, as appended to the label's path. */
export const labelLinkQuery = (key: KeyObject, target: LabelLinkTarget, expires: number): string =>
  labelLinkQueryOf(expires, signLabelLink(key, target, expires));

/** The query of a link whose signature is known. */
export const labelLinkQueryOf = (expires: number, signature: string): string => `?expires=${expires}&signature=${signature}`;

// One spelling each: no leading zero, the canonical base64url of 32 bytes.
const expiresFormat = /^[1-9]\d{0,11}$/;
const signatureFormat = /^[A-Za-z0-9_-]{43}$/;

/**
 * Whether the query opens this label: the signature is checked first (in constant time), the expiry
 * after, so that only a link we signed can be told apart as expired or as living too long.
 */
export const verifyLabelLink = (
  key: KeyObject,
  target: LabelLinkTarget,
  link: { expires?: string | undefined; signature?: string | undefined },
  now: Date,
): LabelLinkVerdict => {
  const { expires, signature } = link;
  if (expires === undefined || signature === undefined || !expiresFormat.test(expires) || !signatureFormat.test(signature)) return 'invalid';
  const given = Buffer.from(signature, 'base64url');
  // Decoding ignores the last character's spare bits: only the canonical spelling is accepted.
  if (given.toString('base64url') !== signature) return 'invalid';
  const expected = signed(key, target, Number(expires));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (Number(expires) > nowSeconds + labelLinkMaxLifetimeSeconds + labelLinkClockSkewSeconds) return 'beyond_lifetime';
  return nowSeconds >= Number(expires) ? 'expired' : 'valid';
};
