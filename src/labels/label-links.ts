import type { SupplierName } from '../events/schema/common-schemas.ts';
import type { Clock } from '../events/command-context.ts';
import { labelLinkExpiry, labelLinkQuery } from './label-link-signature.ts';

/**
 * The signed label links one supplier's listing hands out. The lines of a page share one expiry, and a
 * line's query is signed once per expiry (an hour): a supplier polling its feed costs one HMAC per line
 * and per hour, not per poll. At most `maxEntries` signatures are kept (about 200 bytes each).
 */
export type LabelLinks = {
  /** The expiry of the links signed now. */
  expiresNow: () => number;
  /** `?expires=...&signature=...` of the line's label. */
  query: (serviceOrderId: string, expires: number) => string;
};

export const createLabelLinks = (options: { key: Buffer; supplier: SupplierName; clock: Clock; maxEntries?: number }): LabelLinks => {
  const { key, supplier, clock } = options;
  const maxEntries = options.maxEntries ?? 20_000;
  let signedFor = 0;
  let signed = new Map<string, string>();
  return {
    expiresNow: () => labelLinkExpiry(clock.now()),
    query: (serviceOrderId, expires) => {
      if (expires !== signedFor) {
        signedFor = expires;
        signed = new Map();
      }
      let query = signed.get(serviceOrderId);
      if (query === undefined) {
        query = labelLinkQuery(key, { supplier, serviceOrderId }, expires);
        if (signed.size >= maxEntries) signed.clear();
        signed.set(serviceOrderId, query);
      }
      return query;
    },
  };
};
