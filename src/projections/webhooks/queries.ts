import type { SupplierName } from '../../events/schema/common-schemas.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import {
  webhookDeliveriesCollection,
  webhookDeliveryId,
  webhookSubscriptionsCollection,
  type WebhookDeliveryDocument,
  type WebhookSubscriptionDocument,
} from './webhooks-projection.ts';

/** A supplier's subscriptions, oldest first. */
export const subscriptionsOf = (store: ReadStore, supplier: SupplierName): Promise<WebhookSubscriptionDocument[]> =>
  store
    .collection<WebhookSubscriptionDocument>(webhookSubscriptionsCollection)
    .find({ supplier }, { sort: { subscribedAt: 1, _id: 1 } })
    .toArray();

export const countSubscriptionsOf = (store: ReadStore, supplier: SupplierName): Promise<number> =>
  store.collection<WebhookSubscriptionDocument>(webhookSubscriptionsCollection).countDocuments({ supplier });

/** Every subscription (a few per supplier): the deliverer runs the active ones. */
export const allSubscriptions = (store: ReadStore): Promise<WebhookSubscriptionDocument[]> =>
  store
    .collection<WebhookSubscriptionDocument>(webhookSubscriptionsCollection)
    .find({}, { sort: { _id: 1 } })
    .toArray();

export const subscriptionById = (store: ReadStore, subscriptionId: string): Promise<WebhookSubscriptionDocument | null> =>
  store.collection<WebhookSubscriptionDocument>(webhookSubscriptionsCollection).findOne({ _id: subscriptionId });

/** A subscription's deliveries, latest first, `limit` of them before the log position `before` (a page). */
export const deliveriesOf = (store: ReadStore, subscriptionId: string, page: { limit: number; before?: number }): Promise<WebhookDeliveryDocument[]> =>
  store
    .collection<WebhookDeliveryDocument>(webhookDeliveriesCollection)
    .find({ subscriptionId, ...(page.before !== undefined && { position: { $lt: page.before } }) }, { sort: { position: -1 }, limit: page.limit })
    .toArray();

export const deliveryOf = (store: ReadStore, subscriptionId: string, messageId: string): Promise<WebhookDeliveryDocument | null> =>
  store.collection<WebhookDeliveryDocument>(webhookDeliveriesCollection).findOne({ _id: webhookDeliveryId(subscriptionId, messageId) });

export const countFailingSubscriptions = (store: ReadStore): Promise<number> =>
  store.collection<WebhookSubscriptionDocument>(webhookSubscriptionsCollection).countDocuments({ status: 'failing' });

/** The deliveries someone asked to send again, in log order. */
export const redeliveriesRequested = (store: ReadStore, subscriptionId: string, limit: number): Promise<WebhookDeliveryDocument[]> =>
  store
    .collection<WebhookDeliveryDocument>(webhookDeliveriesCollection)
    .find({ subscriptionId, status: 'redelivery_requested' }, { sort: { position: 1 }, limit })
    .toArray();
