import { z } from 'zod';
import { defineEvent, type EventsOf } from '../schema/define-event.ts';
import { instant, positiveId } from '../schema/common-schemas.ts';

/** Access tokens (`accesstoken-<tokenId>`) and single-use action tokens (`actiontoken-<jti>`). */

export const tokenGroup = z.enum(['supplier-a', 'supplier-b', 'core', 'chatbot', 'analyst', 'auditor']);
export type TokenGroup = z.infer<typeof tokenGroup>;

export const AccessTokenIssued = defineEvent(
  'AccessTokenIssued',
  z.object({
    tokenId: z.string().regex(/^[a-z0-9]{8,32}$/),
    group: tokenGroup,
    label: z.string().min(1).max(100),
    /** Only a hash of the secret part is ever stored. */
    secretHash: z.string().regex(/^[a-f0-9]{64}$/),
    issuedAt: instant,
  }),
);

export const AccessTokenRevoked = defineEvent('AccessTokenRevoked', z.object({ tokenId: z.string(), revokedAt: instant }));

export const actionKind = z.enum(['invoice', 'cancel', 'address', 'rdv', 'delivery-rdv']);
export type ActionKind = z.infer<typeof actionKind>;

export const ActionTokenConsumed = defineEvent(
  'ActionTokenConsumed',
  z.object({ tokenJti: z.string().min(8).max(64), action: actionKind, saleId: positiveId, consumedAt: instant }),
);

/**
 * The use recorded by ActionTokenConsumed is given back: the action it was spent on surely did not
 * happen (refused by then, or failed before recording anything), so the link works again.
 */
export const ActionTokenRestored = defineEvent(
  'ActionTokenRestored',
  z.object({ tokenJti: z.string().min(8).max(64), reason: z.string().min(1).max(100), restoredAt: instant }),
);

export const accessEventDefinitions = [AccessTokenIssued, AccessTokenRevoked, ActionTokenConsumed, ActionTokenRestored] as const;
export type AccessEvent = EventsOf<typeof accessEventDefinitions>;

export const accessTokenStreamName = (tokenId: string): string => `accesstoken-${tokenId}`;
export const actionTokenStreamName = (jti: string): string => `actiontoken-${jti}`;
