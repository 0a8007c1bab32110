import { z } from 'zod';
import type { SupplierName } from '../../events/schema/common-schemas.ts';
import { webhookKinds } from '../../events/webhooks/events.ts';
import { supplierResult } from '../supplier/schemas.ts';
import { deliveriesQuery, webhookSubscriptionBody, webhookTexts } from '../supplier/webhook-routes.ts';
import { webhookPayloads } from '../../webhooks/webhook-payloads.ts';
import type { ResponseDoc, RouteDoc } from './document.ts';

/** The supplier's webhook routes and the messages its endpoint receives (the document's `webhooks`). */

const failureBody = supplierResult.extend({ success: z.literal(false) });
const failure = (description: string, message: string): ResponseDoc => ({ description, body: failureBody, example: { success: false, message } });

const subscription = z.object({
  id: z.string(),
  url: z.string(),
  kinds: z.array(z.enum(webhookKinds as [string, ...string[]])),
  status: z.enum(['active', 'failing']),
  created_at: z.string(),
  secret_version: z.number().int(),
  secret_rotated_at: z.string().nullable(),
  failing: z.object({ message_id: z.string(), last_error: z.string(), since: z.string() }).nullable(),
});
const delivery = z.object({
  id: z.string().describe('The `webhook-id` of the message.'),
  kind: z.string(),
  event_id: z.string(),
  service_order_id: z.string(),
  position: z.number().int(),
  status: z.enum(['delivered', 'retrying', 'failed', 'redelivery_requested']),
  attempts: z.number().int(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_attempt_at: z.string(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
});
const idParam = z.object({ id: z.string().describe('The subscription ID (wh_...).') });
const malformed = failure('The body is declared JSON but malformed.', 'The request body is not valid JSON');
const notFound = failure("No subscription of this supplier has this ID (never made, removed, or the other supplier's).", 'Webhook subscription not found');

export const supplierWebhookRouteDocs = (
  supplier: SupplierName,
  id: string,
  common: Pick<RouteDoc, 'tags' | 'security'>,
  errors: Record<number, ResponseDoc>,
): RouteDoc[] => {
  const base = `/api/${supplier}/webhooks`;
  const secretNote = 'The signing secret (whsec_...) is in this answer only: it is stored nowhere.';
  return [
    {
      ...common,
      method: 'post',
      path: base,
      operationId: `subscribeWebhook${id}`,
      summary: 'Subscribe an HTTPS endpoint to what happens to your lines',
      description: `The URL's host must resolve to public addresses only (checked again at each delivery). At most 10 subscriptions. ${secretNote}`,
      body: webhookSubscriptionBody,
      bodyExample: { url: 'https://hooks.supplier.example/sav', kinds: ['line.opened', 'line.cancelled'] },
      responses: {
        201: { description: 'Subscribed.', body: z.object({ success: z.literal(true), webhook: subscription, secret: z.string() }) },
        400: failure('The URL is not https, not valid, or its host is not public; a kind is unknown.', 'The endpoint cannot be used: the URL must be https'),
        409: failure('The supplier already has 10 subscriptions.', 'A supplier keeps at most 10 webhook subscriptions: remove one first'),
        ...errors,
      },
    },
    {
      ...common,
      method: 'get',
      path: base,
      operationId: `listWebhooks${id}`,
      summary: 'Your webhook subscriptions (never their secrets)',
      responses: {
        200: { description: 'Oldest first.', body: z.object({ success: z.literal(true), webhooks: z.array(subscription) }) },
        400: malformed,
        ...errors,
      },
    },
    {
      ...common,
      method: 'delete',
      path: `${base}/:id`,
      operationId: `removeWebhook${id}`,
      summary: 'Remove a subscription: nothing more is sent to it',
      pathParams: idParam,
      responses: {
        200: { description: 'Removed.', body: supplierResult, example: { success: true, message: webhookTexts.removed } },
        404: notFound,
        ...errors,
      },
    },
    {
      ...common,
      method: 'post',
      path: `${base}/:id/rotate-secret`,
      operationId: `rotateWebhookSecret${id}`,
      summary: 'A new signing secret; the previous one still signs for a day',
      description: `Deliveries carry both signatures until previous_secret_valid_until. ${secretNote}`,
      pathParams: idParam,
      responses: {
        200: { description: 'Rotated.', body: z.object({ success: z.literal(true), secret: z.string(), previous_secret_valid_until: z.string() }) },
        400: malformed,
        404: notFound,
        ...errors,
      },
    },
    {
      ...common,
      method: 'post',
      path: `${base}/:id/resume`,
      operationId: `resumeWebhook${id}`,
      summary: 'Resume a failing subscription from the message it stopped at',
      pathParams: idParam,
      responses: {
        200: { description: 'Resumed, or it was not failing.', body: supplierResult, example: { success: true, message: webhookTexts.resumed } },
        404: notFound,
        ...errors,
      },
    },
    {
      ...common,
      method: 'get',
      path: `${base}/:id/deliveries`,
      operationId: `listWebhookDeliveries${id}`,
      summary: "The subscription's deliveries, latest first, with their attempts",
      pathParams: idParam,
      query: deliveriesQuery,
      responses: {
        200: {
          description: 'One page; next_before for the next.',
          body: z.object({ success: z.literal(true), deliveries: z.array(delivery), next_before: z.number().int().nullable() }),
        },
        404: notFound,
        ...errors,
      },
    },
    {
      ...common,
      method: 'post',
      path: `${base}/:id/deliveries/:messageId/resend`,
      operationId: `resendWebhook${id}`,
      summary: 'Send a delivery once more, with the same webhook-id',
      pathParams: idParam.extend({ messageId: z.string().describe('The webhook-id of the delivery (its id in the list).') }),
      responses: {
        202: { description: 'It will be sent again.', body: supplierResult, example: { success: true, message: webhookTexts.resend } },
        400: malformed,
        404: failure('No such subscription, or no attempt of this message yet.', 'No delivery of this message to this subscription has been attempted yet'),
        ...errors,
      },
    },
  ];
};

/** The messages a subscribed endpoint receives, for the document's `webhooks` section. */
export const supplierWebhookMessages = Object.entries(webhookPayloads).map(([kind, body]) => ({
  name: kind,
  summary: `${kind}: ${body.description ?? 'a line opened for you (a new order, or handed to you)'}`,
  body,
}));
