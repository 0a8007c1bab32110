import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import type { SupplierName } from '../../events/schema/common-schemas.ts';
import type { WebhookKind } from '../../events/webhooks/events.ts';
import { applyOnce, type Projection } from '../projection.ts';
import type { ReadCollection, ReadStore } from '../read-store/read-store.ts';

/**
 * The suppliers' webhook subscriptions (`webhook_subscriptions`: what each supplier has registered and
 * whether it is failing) and every delivery attempted (`webhook_deliveries`: one document per event
 * owed to a subscription, with its attempts, last error and next attempt), for the API's lists and
 * the deliverer's redeliveries. What a subscription still owes is decided from the log, not from here.
 */

export const webhookSubscriptionsCollection = 'webhook_subscriptions';
export const webhookDeliveriesCollection = 'webhook_deliveries';

export type WebhookSubscriptionDocument = {
  _id: string;
  _position: number;
  supplier: SupplierName;
  url: string;
  kinds: WebhookKind[];
  fromPosition: number;
  subscribedAt: string;
  secretVersion: number;
  secretRotatedAt: string | null;
  status: 'active' | 'failing';
  failing: { messageId: string; lastError: string; failingAt: string } | null;
};

export type WebhookDeliveryDocument = {
  /** `<subscriptionId>:<messageId>` */
  _id: string;
  _position: number;
  subscriptionId: string;
  messageId: string;
  sourceEventId: string;
  serviceOrderId: string;
  position: number;
  kind: WebhookKind;
  /** `retrying`: failed, tried again at nextAttemptAt; `failed`: failed, the subscription marked failing. */
  status: 'delivered' | 'retrying' | 'failed' | 'redelivery_requested';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: string;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
};

export const webhookDeliveryId = (subscriptionId: string, messageId: string): string => `${subscriptionId}:${messageId}`;

type Attempt = Pick<WebhookDeliveryDocument, 'status' | 'attempts' | 'lastStatus' | 'lastError' | 'lastAttemptAt' | 'nextAttemptAt'> &
  Partial<Pick<WebhookDeliveryDocument, 'deliveredAt'>>;

/** A delivery's document after one attempt: what identifies the message, and the attempt's outcome. */
const recordAttempt = (
  deliveries: ReadCollection<WebhookDeliveryDocument>,
  event: StoredEvent<EventOfType<'WebhookDelivered' | 'WebhookDeliveryFailed'>>,
  attempt: Attempt,
  onInsert: Partial<WebhookDeliveryDocument> = {},
) => {
  const { subscriptionId, messageId, sourceEventId, serviceOrderId, position, kind } = event.data;
  return applyOnce(
    deliveries,
    webhookDeliveryId(subscriptionId, messageId),
    event.position,
    {
      $set: { subscriptionId, messageId, sourceEventId, serviceOrderId, position, kind, ...attempt },
      ...(Object.keys(onInsert).length > 0 && { $setOnInsert: onInsert }),
    },
    { upsert: true },
  );
};

const eventTypes = [
  'WebhookSubscribed',
  'WebhookSecretRotated',
  'WebhookSubscriptionFailing',
  'WebhookSubscriptionResumed',
  'WebhookUnsubscribed',
  'WebhookDelivered',
  'WebhookDeliveryFailed',
  'WebhookRedeliveryRequested',
] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

export const webhooksProjection: Projection = {
  name: 'webhooks',
  version: 1,
  eventTypes,
  collections: [webhookSubscriptionsCollection, webhookDeliveriesCollection],

  async setup(store: ReadStore) {
    await store.collection<WebhookSubscriptionDocument>(webhookSubscriptionsCollection).createIndex({ supplier: 1, subscribedAt: 1 });
    const deliveries = store.collection<WebhookDeliveryDocument>(webhookDeliveriesCollection);
    await deliveries.createIndex({ subscriptionId: 1, position: -1 });
    await deliveries.createIndex({ subscriptionId: 1, status: 1, position: 1 });
  },

  async apply(stored: StoredEvent, store: ReadStore) {
    if (!handled.has(stored.type)) return;
    const event = stored as StoredEvent<Handled>;
    const subscriptions = store.collection<WebhookSubscriptionDocument>(webhookSubscriptionsCollection);
    const deliveries = store.collection<WebhookDeliveryDocument>(webhookDeliveriesCollection);
    switch (event.type) {
      case 'WebhookSubscribed': {
        const { subscriptionId, ...subscription } = event.data;
        await applyOnce(
          subscriptions,
          subscriptionId,
          event.position,
          { $set: { ...subscription, secretVersion: 1, secretRotatedAt: null, status: 'active', failing: null } },
          { upsert: true },
        );
        return;
      }
      case 'WebhookSecretRotated':
        await applyOnce(subscriptions, event.data.subscriptionId, event.position, {
          $set: { secretVersion: event.data.secretVersion, secretRotatedAt: event.data.rotatedAt },
        });
        return;
      case 'WebhookSubscriptionFailing': {
        const { messageId, lastError, failingAt } = event.data;
        await applyOnce(subscriptions, event.data.subscriptionId, event.position, {
          $set: { status: 'failing', failing: { messageId, lastError, failingAt } },
        });
        return;
      }
      case 'WebhookSubscriptionResumed':
        await applyOnce(subscriptions, event.data.subscriptionId, event.position, { $set: { status: 'active', failing: null } });
        return;
      case 'WebhookUnsubscribed':
        await subscriptions.deleteOne({ _id: event.data.subscriptionId });
        return;
      case 'WebhookDelivered': {
        const { attempt, status, deliveredAt } = event.data;
        await recordAttempt(deliveries, event, {
          status: 'delivered',
          attempts: attempt,
          lastStatus: status,
          lastError: null,
          lastAttemptAt: deliveredAt,
          nextAttemptAt: null,
          deliveredAt,
        });
        return;
      }
      case 'WebhookDeliveryFailed': {
        const { attempt, status, error, nextAttemptAt, failedAt } = event.data;
        // A failure after a redelivery keeps the earlier delivery's instant.
        await recordAttempt(
          deliveries,
          event,
          {
            status: nextAttemptAt === null ? 'failed' : 'retrying',
            attempts: attempt,
            lastStatus: status,
            lastError: error,
            lastAttemptAt: failedAt,
            nextAttemptAt,
          },
          { deliveredAt: null },
        );
        return;
      }
      case 'WebhookRedeliveryRequested':
        await applyOnce(deliveries, webhookDeliveryId(event.data.subscriptionId, event.data.messageId), event.position, {
          $set: { status: 'redelivery_requested', nextAttemptAt: null },
        });
        return;
      default:
        return assertNever(event);
    }
  },
};
