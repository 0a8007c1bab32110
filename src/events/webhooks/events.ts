import { z } from 'zod';
import { defineEvent, type EventsOf } from '../schema/define-event.ts';
import { instant, supplierName } from '../schema/common-schemas.ts';

/**
 * A supplier's webhook subscriptions (`webhook-<subscriptionId>`: subscribed, its secret rotated,
 * failing, resumed, unsubscribed) and the outcome of each delivery (`webhookdelivery-<subscriptionId>-
 * <messageId>`: one small stream per message owed to a subscription, as the customer mails have). No
 * secret is recorded: a subscription's signing secret is derived from the service's token secret, its
 * ID and its version (src/webhooks/webhook-secret.ts), shown once when it is made.
 */

/** What a supplier is told: a line opened for it, cancelled, its delivery address changed, taken from it. */
export const webhookKind = z.enum(['line.opened', 'line.cancelled', 'line.address_changed', 'line.taken_away']);
export type WebhookKind = z.infer<typeof webhookKind>;
export const webhookKinds: readonly WebhookKind[] = webhookKind.options;

export const subscriptionId = z.string().regex(/^wh_[a-z0-9]{16}$/);

/** One message: one event about one line (`webhook-id`, the same at every attempt). */
export const messageId = z.string().regex(/^msg_[0-9a-f]{32}_\d{1,20}_\d{1,12}$/);

export const WebhookSubscribed = defineEvent(
  'WebhookSubscribed',
  z.object({
    subscriptionId,
    supplier: supplierName,
    url: z.url({ protocol: /^https$/ }).max(2048),
    kinds: z.array(webhookKind).min(1),
    /** The log position the subscription was made at: it is told what happens after it. */
    fromPosition: z.number().int().min(-1),
    subscribedAt: instant,
  }),
);

/** A new secret (version n + 1); deliveries are signed with both until `previousValidUntil`. */
export const WebhookSecretRotated = defineEvent(
  'WebhookSecretRotated',
  z.object({ subscriptionId, secretVersion: z.number().int().min(2), previousValidUntil: instant, rotatedAt: instant }),
);

/** Deliveries were refused for a day: nothing more is sent until it is resumed, from the event it stopped at. */
export const WebhookSubscriptionFailing = defineEvent(
  'WebhookSubscriptionFailing',
  z.object({ subscriptionId, messageId, lastError: z.string().max(2000), failingAt: instant }),
);

export const WebhookSubscriptionResumed = defineEvent('WebhookSubscriptionResumed', z.object({ subscriptionId, resumedAt: instant }));

export const WebhookUnsubscribed = defineEvent('WebhookUnsubscribed', z.object({ subscriptionId, unsubscribedAt: instant }));

const deliveryRef = {
  subscriptionId,
  messageId,
  sourceEventId: z.string().uuid(),
  serviceOrderId: z.string().max(40),
  /** The source event's log position: deliveries of a subscription go in this order. */
  position: z.number().int().min(0),
  kind: webhookKind,
};

export const WebhookDelivered = defineEvent(
  'WebhookDelivered',
  z.object({ ...deliveryRef, attempt: z.number().int().min(1), status: z.number().int().min(200).max(299), deliveredAt: instant }),
);

export const WebhookDeliveryFailed = defineEvent(
  'WebhookDeliveryFailed',
  z.object({
    ...deliveryRef,
    attempt: z.number().int().min(1),
    /** The receiver's status, or null when it could not be reached (refused address, timeout, connection). */
    status: z.number().int().min(100).max(599).nullable(),
    error: z.string().max(2000),
    /** When it is tried again; null when the subscription has been marked failing. */
    nextAttemptAt: instant.nullable(),
    failedAt: instant,
  }),
);

/** Someone asked for a delivery to be sent again (delivered or not): the deliverer sends it once more. */
export const WebhookRedeliveryRequested = defineEvent('WebhookRedeliveryRequested', z.object({ ...deliveryRef, requestedAt: instant }));

export const webhookEventDefinitions = [
  WebhookSubscribed,
  WebhookSecretRotated,
  WebhookSubscriptionFailing,
  WebhookSubscriptionResumed,
  WebhookUnsubscribed,
  WebhookDelivered,
  WebhookDeliveryFailed,
  WebhookRedeliveryRequested,
] as const;
export type WebhookEvent = EventsOf<typeof webhookEventDefinitions>;

export const webhookStreamName = (id: string): string => `webhook-${id}`;
/** The `webhook-id` of the message telling one line about one event. */
export const webhookMessageId = (sourceEventId: string, serviceOrderId: string): string => `msg_${sourceEventId.replace(/-/g, '')}_${serviceOrderId}`;
export const webhookDeliveryStreamName = (id: string, messageId: string): string => `webhookdelivery-${id}-${messageId}`;
/** The events of a message's own stream (webhookDeliveryStreamName): its attempts, and the requests to send it again. */
export const webhookDeliveryEventTypes = ['WebhookDelivered', 'WebhookDeliveryFailed', 'WebhookRedeliveryRequested'] as const;
