import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { CommandContext } from '../../events/command-context.ts';
import type { SupplierName } from '../../events/schema/common-schemas.ts';
import { messageId, subscriptionId, webhookKind, webhookKinds } from '../../events/webhooks/events.ts';
import { HttpError } from '../../http/http-error.ts';
import { noteWritten } from '../../http/read-your-writes.ts';
import { deliveriesOf, subscriptionsOf } from '../../projections/webhooks/queries.ts';
import type { WebhookDeliveryDocument, WebhookSubscriptionDocument } from '../../projections/webhooks/webhooks-projection.ts';
import {
  changeWebhookSubscription,
  readSubscription,
  requestRedelivery,
  rotateWebhookSecret,
  subscribeWebhook,
  type WebhookDeps,
  type WebhookRefusal,
} from '../../webhooks/webhook-subscriptions.ts';
import { parseInput } from '../parse-input.ts';

/**
 * The suppliers' webhooks, under their own segment (`/api/{supplier}/webhooks`): subscribe an HTTPS
 * endpoint (its secret in the answer, once), list, remove, rotate the secret, resume a failing
 * subscription, list its deliveries and send one again. Answers in the supplier envelope.
 */

export const webhookSubscriptionBody = z.strictObject({
  url: z.string().max(2048).describe('Your HTTPS endpoint. Its host must resolve to public addresses only.'),
  kinds: z
    .array(webhookKind)
    .min(1)
    .max(webhookKinds.length)
    .optional()
    .describe(`What you are told (default all): ${webhookKinds.join(', ')}.`),
});

export const deliveriesQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional().describe('Deliveries per page, latest first (default 50).'),
  before: z.coerce.number().int().min(0).optional().describe('The `next_before` of the previous page.'),
});

const subscriptionView = (subscription: WebhookSubscriptionDocument) => ({
  id: subscription._id,
  url: subscription.url,
  kinds: subscription.kinds,
  status: subscription.status,
  created_at: subscription.subscribedAt,
  secret_version: subscription.secretVersion,
  secret_rotated_at: subscription.secretRotatedAt,
  failing: subscription.failing && {
    message_id: subscription.failing.messageId,
    last_error: subscription.failing.lastError,
    since: subscription.failing.failingAt,
  },
});

const deliveryView = (delivery: WebhookDeliveryDocument) => ({
  id: delivery.messageId,
  kind: delivery.kind,
  event_id: delivery.sourceEventId,
  service_order_id: delivery.serviceOrderId,
  position: delivery.position,
  status: delivery.status,
  attempts: delivery.attempts,
  last_status: delivery.lastStatus,
  last_error: delivery.lastError,
  last_attempt_at: delivery.lastAttemptAt,
  next_attempt_at: delivery.nextAttemptAt,
  delivered_at: delivery.deliveredAt,
});

export const webhookTexts = {
  removed: 'Votre abonnement a bien été supprimé',
  resumed: 'Votre abonnement a repris : les envois reprennent là où ils s’étaient arrêtés',
  notFailing: 'Votre abonnement n’était pas en échec : rien à reprendre',
  resend: 'Cet envoi va être renvoyé',
  alreadyQueued: 'Cet envoi est déjà en attente',
} as const;

const badRequest = (field: string, message: string) => new HttpError(400, 'Bad Request', field === '' ? message : `Invalid ${field}: ${message}`);
const notFound = () => new HttpError(404, 'Not Found', 'Webhook subscription not found');
const refusal = (outcome: WebhookRefusal): HttpError => {
  if (outcome.code === 'unknown_subscription') return notFound();
  if (outcome.code === 'too_many') return new HttpError(409, 'Conflict', outcome.message);
  if (outcome.code === 'never_attempted') return new HttpError(404, 'Not Found', outcome.message);
  return new HttpError(400, 'Bad Request', outcome.message);
};

const idOf = (value: string | undefined): string => {
  if (!subscriptionId.safeParse(value).success) throw notFound();
  return value!;
};

export const addWebhookRoutes = (router: Router, base: string, guard: Middleware[], deps: { supplier: SupplierName; webhooks: WebhookDeps }): void => {
  const { supplier, webhooks } = deps;
  const context = (ctx: { state: { commandContext: CommandContext } }) => ctx.state.commandContext;

  router.post(`${base}/webhooks`, ...guard, async (ctx) => {
    const body = parseInput(webhookSubscriptionBody, ctx.request.body, (field, issue) => badRequest(field, issue.message));
    const outcome = await subscribeWebhook(webhooks, { supplier, url: body.url, kinds: body.kinds ?? webhookKinds }, context(ctx));
    if (outcome.status === 'refused') throw refusal(outcome);
    noteWritten(ctx.state, outcome.written);
    const { subscriptionId: id, supplier: owner, url, kinds, fromPosition, subscribedAt } = outcome.subscription;
    ctx.status = 201;
    ctx.body = {
      success: true,
      // As its listing will show it: just made, never rotated nor failing.
      webhook: subscriptionView({
        _id: id,
        _position: -1,
        supplier: owner,
        url,
        kinds,
        fromPosition,
        subscribedAt,
        secretVersion: 1,
        secretRotatedAt: null,
        status: 'active',
        failing: null,
      }),
      // Shown once: derived again to sign, stored nowhere.
      secret: outcome.secret,
    };
  });

  router.get(`${base}/webhooks`, ...guard, async (ctx) => {
    ctx.body = { success: true, webhooks: (await subscriptionsOf(webhooks.readStore, supplier)).map(subscriptionView) };
  });

  router.delete(`${base}/webhooks/:id`, ...guard, async (ctx) => {
    const outcome = await changeWebhookSubscription(webhooks, { supplier, subscriptionId: idOf(ctx.params.id), change: 'Unsubscribe' }, context(ctx));
    if (outcome.status === 'refused') throw refusal(outcome);
    noteWritten(ctx.state, outcome.written);
    ctx.body = { success: true, message: webhookTexts.removed };
  });

  router.post(`${base}/webhooks/:id/rotate-secret`, ...guard, async (ctx) => {
    const outcome = await rotateWebhookSecret(webhooks, { supplier, subscriptionId: idOf(ctx.params.id) }, context(ctx));
    if (outcome.status === 'refused') throw refusal(outcome);
    noteWritten(ctx.state, outcome.written);
    ctx.body = { success: true, secret: outcome.secret, previous_secret_valid_until: outcome.previousValidUntil };
  });

  router.post(`${base}/webhooks/:id/resume`, ...guard, async (ctx) => {
    const outcome = await changeWebhookSubscription(webhooks, { supplier, subscriptionId: idOf(ctx.params.id), change: 'Resume' }, context(ctx));
    if (outcome.status === 'refused') throw refusal(outcome);
    noteWritten(ctx.state, outcome.written);
    ctx.body = { success: true, message: outcome.status === 'changed' ? webhookTexts.resumed : webhookTexts.notFailing };
  });

  router.get(`${base}/webhooks/:id/deliveries`, ...guard, async (ctx) => {
    const id = idOf(ctx.params.id);
    const query = parseInput(deliveriesQuery, ctx.query, (field, issue) => badRequest(field, issue.message));
    if (!(await readSubscription(webhooks, supplier, id))) throw notFound();
    const limit = query.limit ?? 50;
    const deliveries = await deliveriesOf(webhooks.readStore, id, { limit, ...(query.before !== undefined && { before: query.before }) });
    ctx.body = {
      success: true,
      deliveries: deliveries.map(deliveryView),
      next_before: deliveries.length === limit ? deliveries.at(-1)!.position : null,
    };
  });

  router.post(`${base}/webhooks/:id/deliveries/:messageId/resend`, ...guard, async (ctx) => {
    const id = idOf(ctx.params.id);
    if (!messageId.safeParse(ctx.params.messageId).success) throw new HttpError(404, 'Not Found', 'Delivery not found');
    const outcome = await requestRedelivery(webhooks, { supplier, subscriptionId: id, messageId: ctx.params.messageId! }, context(ctx));
    if (outcome.status === 'refused') throw refusal(outcome);
    noteWritten(ctx.state, outcome.written);
    ctx.status = 202;
    ctx.body = { success: true, message: outcome.status === 'requested' ? webhookTexts.resend : webhookTexts.alreadyQueued };
  });
};
