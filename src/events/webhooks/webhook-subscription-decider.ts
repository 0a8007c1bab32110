import { assertNever, Refusal, type Decider } from '../decider.ts';
import type { SupplierName } from '../schema/common-schemas.ts';
import type { WebhookEvent, WebhookKind } from './events.ts';

/**
 * A webhook subscription, `webhook-<subscriptionId>`: made once, its secret rotated any number of
 * times, marked failing by the deliverer after a day of refused deliveries and resumed by its
 * supplier or staff, removed at most once (then it is as if it had never been: 404).
 */

export type WebhookSubscriptionEvent = Extract<
  WebhookEvent,
  { type: 'WebhookSubscribed' | 'WebhookSecretRotated' | 'WebhookSubscriptionFailing' | 'WebhookSubscriptionResumed' | 'WebhookUnsubscribed' }
>;

export type WebhookSubscription = {
  subscriptionId: string;
  supplier: SupplierName;
  url: string;
  kinds: WebhookKind[];
  fromPosition: number;
  subscribedAt: string;
  secretVersion: number;
  /** Deliveries are also signed with the secret before `secretVersion` until then. */
  previousValidUntil: string | null;
  failing: { messageId: string; lastError: string; failingAt: string } | null;
  /** When it was last resumed: its failing period counts again from then. */
  resumedAt: string | null;
};

export type WebhookSubscriptionState = { status: 'absent' } | { status: 'removed' } | ({ status: 'active' } & WebhookSubscription);

export type WebhookSubscriptionCommand =
  | { type: 'Subscribe'; subscriptionId: string; supplier: SupplierName; url: string; kinds: WebhookKind[]; fromPosition: number; at: string }
  | { type: 'RotateSecret'; supplier: SupplierName; previousValidUntil: string; at: string }
  | { type: 'MarkFailing'; messageId: string; lastError: string; at: string }
  | { type: 'Resume'; supplier: SupplierName; at: string }
  | { type: 'Unsubscribe'; supplier: SupplierName; at: string };

/** `unknown_subscription`: none under this ID for this supplier (never made, removed, or another supplier's). */
export type WebhookSubscriptionRefusalCode = 'subscription_exists' | 'unknown_subscription';

const unknown = () => new Refusal<WebhookSubscriptionRefusalCode>('unknown_subscription', 'No webhook subscription has this ID');

const decide = (
  command: WebhookSubscriptionCommand,
  state: WebhookSubscriptionState,
): readonly WebhookSubscriptionEvent[] | Refusal<WebhookSubscriptionRefusalCode> => {
  if (command.type === 'Subscribe') {
    if (state.status !== 'absent') return new Refusal('subscription_exists', 'A webhook subscription already has this ID');
    const { subscriptionId, supplier, url, kinds, fromPosition, at } = command;
    return [{ type: 'WebhookSubscribed', data: { subscriptionId, supplier, url, kinds, fromPosition, subscribedAt: at } }];
  }
  if (state.status !== 'active') return unknown();
  const { subscriptionId } = state;
  switch (command.type) {
    case 'RotateSecret':
      if (command.supplier !== state.supplier) return unknown();
      return [
        {
          type: 'WebhookSecretRotated',
          data: { subscriptionId, secretVersion: state.secretVersion + 1, previousValidUntil: command.previousValidUntil, rotatedAt: command.at },
        },
      ];
    case 'MarkFailing':
      if (state.failing) return [];
      return [
        { type: 'WebhookSubscriptionFailing', data: { subscriptionId, messageId: command.messageId, lastError: command.lastError, failingAt: command.at } },
      ];
    case 'Resume':
      if (command.supplier !== state.supplier) return unknown();
      if (!state.failing) return [];
      return [{ type: 'WebhookSubscriptionResumed', data: { subscriptionId, resumedAt: command.at } }];
    case 'Unsubscribe':
      if (command.supplier !== state.supplier) return unknown();
      return [{ type: 'WebhookUnsubscribed', data: { subscriptionId, unsubscribedAt: command.at } }];
    default:
      return assertNever(command);
  }
};

const evolve = (state: WebhookSubscriptionState, event: WebhookSubscriptionEvent): WebhookSubscriptionState => {
  switch (event.type) {
    case 'WebhookSubscribed':
      return { status: 'active', ...event.data, secretVersion: 1, previousValidUntil: null, failing: null, resumedAt: null };
    case 'WebhookSecretRotated':
      if (state.status !== 'active') return state;
      return { ...state, secretVersion: event.data.secretVersion, previousValidUntil: event.data.previousValidUntil };
    case 'WebhookSubscriptionFailing':
      if (state.status !== 'active') return state;
      return { ...state, failing: { messageId: event.data.messageId, lastError: event.data.lastError, failingAt: event.data.failingAt } };
    case 'WebhookSubscriptionResumed':
      if (state.status !== 'active') return state;
      return { ...state, failing: null, resumedAt: event.data.resumedAt };
    case 'WebhookUnsubscribed':
      return { status: 'removed' };
    default:
      return assertNever(event);
  }
};

export const webhookSubscriptionDecider: Decider<WebhookSubscriptionState, WebhookSubscriptionCommand, WebhookSubscriptionEvent> = {
  initialState: () => ({ status: 'absent' }),
  evolve,
  decide,
};
