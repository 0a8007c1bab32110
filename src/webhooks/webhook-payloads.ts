import { z } from 'zod';
import { webhookKind, type WebhookKind } from '../events/webhooks/events.ts';

/**
 * The body of each kind of webhook message, as receivers read it (printed under `webhooks` in the
 * OpenAPI document): `type`, the instant the event was recorded, and `data` with the line's
 * `service_order_id`, the event's ID and log position. No field names the customer.
 */

const common = {
  service_order_id: z.string().describe('<increment_id>_<sale_product_id>, as in get-sales.'),
  event_id: z.string().uuid().describe('The event of the log this message tells about.'),
  position: z.number().int().describe("The event's log position: a subscription's messages arrive in this order."),
};
const labelLink = z.url().describe("The line's signed label link (valid a day), as in get-sales: the only way to the delivery address.");

const envelope = <K extends WebhookKind, D extends z.ZodRawShape>(kind: K, data: D) =>
  z.object({
    type: z.literal(kind),
    timestamp: z.iso.datetime({ offset: true }).describe('When the event was recorded.'),
    data: z.object({ ...common, ...data }),
  });

export const webhookPayloads = {
  'line.opened': envelope('line.opened', {
    sku: z.string(),
    quantity: z.number().int(),
    price: z.number().nullable().describe('Wholesale unit price; null when unknown.'),
    order_date: z.iso.date(),
    carrier: z.string().nullable(),
    link_to_label: labelLink,
    reason: z.enum(['imported', 'handed_over']).describe('imported: a new order; handed_over: staff gave you a line the other supplier refused.'),
  }),
  'line.cancelled': envelope('line.cancelled', {}).describe('Do not ship this line: it was cancelled before it left.'),
  'line.address_changed': envelope('line.address_changed', { link_to_label: labelLink }).describe(
    'The delivery address changed while the line was open: print the new label.',
  ),
  'line.taken_away': envelope('line.taken_away', {}).describe('Staff handed this line (which you refused) to the other supplier: it is no longer yours.'),
} satisfies Record<WebhookKind, z.ZodType>;

export const webhookPayloadKinds = webhookKind.options;
