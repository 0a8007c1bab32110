import { randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import type { CommandContext } from '../events/command-context.ts';
import { handleCommand, type WriteDeps, type Written } from '../events/command-handler.ts';
import { fold, type Refusal } from '../events/decider.ts';
import { readDomainStream } from '../events/domain-store.ts';
import type { SupplierName } from '../events/schema/common-schemas.ts';
import { webhookDeliveryStreamName, webhookStreamName, type WebhookKind } from '../events/webhooks/events.ts';
import { webhookDeliveryDecider } from '../events/webhooks/webhook-delivery-decider.ts';
import {
  webhookSubscriptionDecider,
  type WebhookSubscription,
  type WebhookSubscriptionCommand,
  type WebhookSubscriptionEvent,
  type WebhookSubscriptionRefusalCode,
  type WebhookSubscriptionState,
} from '../events/webhooks/webhook-subscription-decider.ts';
import { countSubscriptionsOf, deliveryOf } from '../projections/webhooks/queries.ts';
import type { ReadStore } from '../projections/read-store/read-store.ts';
import { webhookSecret } from './webhook-secret.ts';
import { webhookUrlRefusal } from './webhook-url-policy.ts';

/**
 * What suppliers (REST) and staff (CLI) do with webhook subscriptions: subscribe an HTTPS endpoint to
 * kinds of events (its secret shown once), rotate the secret (both signed for a day), resume a failing
 * subscription from where it stopped, remove it, and ask for a delivery to be sent again.
 */

export type WebhookDeps = WriteDeps & {
  readStore: ReadStore;
  tokenSecret: string;
  /** The address policy's test exemptions (config.ts: never in production). */
  urlPolicy: { allowHosts?: readonly string[]; resolve?: (hostname: string) => Promise<LookupAddress[]> };
};

/** A supplier keeps at most this many subscriptions: each is a delivery loop of the deliverer. */
export const maxSubscriptionsPerSupplier = 10;
/** During a rotation the previous secret still signs for a day, so that a receiver can switch over. */
export const rotationOverlapMs = 24 * 60 * 60 * 1000;

export type WebhookRefusal = { status: 'refused'; code: 'invalid_url' | 'too_many' | WebhookSubscriptionRefusalCode | 'never_attempted'; message: string };
const refused = (code: WebhookRefusal['code'], message: string): WebhookRefusal => ({ status: 'refused', code, message });
const fromRefusal = (refusal: Refusal): WebhookRefusal => refused(refusal.code as WebhookRefusal['code'], refusal.message);

const subscriptionCommand = (deps: WebhookDeps, subscriptionId: string, command: WebhookSubscriptionCommand, context: CommandContext) =>
  handleCommand(deps, webhookStreamName(subscriptionId), webhookSubscriptionDecider, command, context);

export const subscribeWebhook = async (
  deps: WebhookDeps,
  input: { supplier: SupplierName; url: string; kinds: readonly WebhookKind[] },
  context: CommandContext,
): Promise<{ status: 'subscribed'; subscription: WebhookSubscription; secret: string; written: Written } | WebhookRefusal> => {
  const why = await webhookUrlRefusal(input.url, deps.urlPolicy);
  if (why !== null) return refused('invalid_url', `The endpoint cannot be used: ${why}`);
  if ((await countSubscriptionsOf(deps.readStore, input.supplier)) >= maxSubscriptionsPerSupplier) {
    return refused('too_many', `A supplier keeps at most ${maxSubscriptionsPerSupplier} webhook subscriptions: remove one first`);
  }
  const subscriptionId = `wh_${randomBytes(8).toString('hex')}`;
  const command = {
    type: 'Subscribe' as const,
    subscriptionId,
    supplier: input.supplier,
    url: input.url,
    kinds: [...new Set(input.kinds)],
    fromPosition: await deps.eventStore.headPosition(),
    at: deps.clock.now().toISOString(),
  };
  const outcome = await subscriptionCommand(deps, subscriptionId, command, context);
  if (outcome.status !== 'accepted' || outcome.state.status !== 'active')
    throw new Error(`subscription ${subscriptionId} could not be recorded (${outcome.status})`);
  const { status: _active, ...subscription } = outcome.state;
  return { status: 'subscribed', subscription, secret: webhookSecret(deps.tokenSecret, subscriptionId, 1), written: outcome.written };
};

export const rotateWebhookSecret = async (
  deps: WebhookDeps,
  input: { supplier: SupplierName; subscriptionId: string },
  context: CommandContext,
): Promise<{ status: 'rotated'; secret: string; previousValidUntil: string; written: Written } | WebhookRefusal> => {
  const now = deps.clock.now();
  const previousValidUntil = new Date(now.getTime() + rotationOverlapMs).toISOString();
  const outcome = await subscriptionCommand(
    deps,
    input.subscriptionId,
    { type: 'RotateSecret', supplier: input.supplier, previousValidUntil, at: now.toISOString() },
    context,
  );
  if (outcome.status === 'refused') return fromRefusal(outcome.refusal);
  if (outcome.status !== 'accepted' || outcome.state.status !== 'active') throw new Error('the rotation recorded nothing');
  return {
    status: 'rotated',
    secret: webhookSecret(deps.tokenSecret, input.subscriptionId, outcome.state.secretVersion),
    previousValidUntil,
    written: outcome.written,
  };
};

/** Resume (a failing subscription, from the event it stopped at) or remove. */
export const changeWebhookSubscription = async (
  deps: WebhookDeps,
  input: { supplier: SupplierName; subscriptionId: string; change: 'Resume' | 'Unsubscribe' },
  context: CommandContext,
): Promise<{ status: 'changed' | 'unchanged'; written?: Written } | WebhookRefusal> => {
  const outcome = await subscriptionCommand(
    deps,
    input.subscriptionId,
    { type: input.change, supplier: input.supplier, at: deps.clock.now().toISOString() },
    context,
  );
  if (outcome.status === 'refused') return fromRefusal(outcome.refusal);
  return outcome.status === 'accepted' ? { status: 'changed', written: outcome.written } : { status: 'unchanged' };
};

/** The subscription as its stream says, if it is this supplier's and not removed. */
export const readSubscription = async (
  deps: Pick<WebhookDeps, 'eventStore'>,
  supplier: SupplierName,
  subscriptionId: string,
): Promise<Extract<WebhookSubscriptionState, { status: 'active' }> | null> => {
  const { events } = await readDomainStream<WebhookSubscriptionEvent>(deps.eventStore, webhookStreamName(subscriptionId));
  const state = fold(webhookSubscriptionDecider, events);
  return state.status === 'active' && state.supplier === supplier ? state : null;
};

/** Sends a delivery once more (delivered or not): the deliverer picks it up at once. */
export const requestRedelivery = async (
  deps: WebhookDeps,
  input: { supplier: SupplierName; subscriptionId: string; messageId: string },
  context: CommandContext,
): Promise<{ status: 'requested' | 'unchanged'; written?: Written } | WebhookRefusal> => {
  if (!(await readSubscription(deps, input.supplier, input.subscriptionId))) return refused('unknown_subscription', 'No webhook subscription has this ID');
  const delivery = await deliveryOf(deps.readStore, input.subscriptionId, input.messageId);
  if (!delivery) return refused('never_attempted', 'No delivery of this message to this subscription has been attempted yet');
  const { subscriptionId, messageId, sourceEventId, serviceOrderId, position, kind } = delivery;
  const outcome = await handleCommand(
    deps,
    webhookDeliveryStreamName(subscriptionId, messageId),
    webhookDeliveryDecider,
    { type: 'RequestRedelivery', subscriptionId, messageId, sourceEventId, serviceOrderId, position, kind, at: deps.clock.now().toISOString() },
    context,
  );
  if (outcome.status === 'refused') return fromRefusal(outcome.refusal);
  return outcome.status === 'accepted' ? { status: 'requested', written: outcome.written } : { status: 'unchanged' };
};
