import { z } from 'zod';
import { defineEvent, type EventsOf } from '../schema/define-event.ts';
import { instant, positiveId } from '../schema/common-schemas.ts';

/**
 * A customer's right to erasure (GDPR article 17), in `customererasure-<keyId>`. The key that sealed the
 * customer's personal data in the log was deleted: from then on those fields read as `[erased]`. The
 * event names what held them (sales, SAVs, leads), so that the read models built before scrub them; it
 * carries no personal value, and its key ID is a random one that nothing links to the e-mail any more.
 */

export const keyIdPattern = /^[a-f0-9]{32}$/;

export const CustomerErased = defineEvent(
  'CustomerErased',
  z.object({
    keyId: z.string().regex(keyIdPattern),
    sales: z.array(z.object({ saleId: positiveId, incrementId: z.string() })),
    savIds: z.array(positiveId),
    leadIds: z.array(z.string().uuid()),
    erasedAt: instant,
  }),
);

export const customerEventDefinitions = [CustomerErased] as const;
export type CustomerEvent = EventsOf<typeof customerEventDefinitions>;

export const customerErasureStreamName = (keyId: string): string => `customererasure-${keyId}`;
