import type { KeyObject } from 'node:crypto';
import type { SupplierName } from '../events/schema/common-schemas.ts';
import type { Clock } from '../events/command-context.ts';
import { labelLinkExpiry, labelLinkQueryOf, signLabelLink } from './label-link-signature.ts';

/**
 * The signed label links one supplier's listing hands out. The lines of a page share one expiry, and a
 * line's link is signed once per expiry (an hour): a supplier polling its feed costs one HMAC per line
 * and per hour, not per poll. At most `maxEntries` signatures are kept (about 200 bytes each, with
 * the line's ID): enough for every open line of a supplier of a retailer with a million orders (about
 * 143,000 for supplier-a in the demo data of that size, 29 MB); past that bound they are dropped and
 * signed again.
 */
export type LabelLinks = {
  /** The expiry of the links signed now. */
  expiresNow: () => number;
  /** `?expires=...&signature=...` of the line's label. */
  query: (serviceOrderId: string, expires: number) => string;
};

export const createLabelLinks = (options: { key: KeyObject; supplier: SupplierName; clock: Clock; maxEntries?: number }): LabelLinks => {
  const { key, supplier, clock } = options;
  const maxEntries = options.maxEntries ?? 200_000;
  let signedFor = 0;
  let signed = new Map<string, string>();
  return {
    expiresNow: () => labelLinkExpiry(clock.now()),
    query: (serviceOrderId, expires) => {
      if (expires !== signedFor) {
        signedFor = expires;
        signed = new Map();
      }
      let signature = signed.get(serviceOrderId);
      if (signature === undefined) {
        signature = signLabelLink(key, { supplier, serviceOrderId }, expires);
        if (signed.size >= maxEntries) signed.clear();
        signed.set(serviceOrderId, signature);
      }
      return labelLinkQueryOf(expires, signature);
    },
  };
};
