import { describe, expect, it } from 'vitest';
import { fold } from '../../../src/events/decider.ts';
import { isDeliveryDue, isDeliverySettled, webhookDeliveryDecider, type WebhookDeliveryEvent } from '../../../src/events/webhooks/webhook-delivery-decider.ts';
import { webhookSubscriptionDecider, type WebhookSubscriptionEvent } from '../../../src/events/webhooks/webhook-subscription-decider.ts';
import { deciderSpec } from '../../support/decider-spec.ts';
import { webhookMessagesOf } from '../../../src/webhooks/webhook-messages.ts';

const subscriptionId = 'wh_0123456789abcdef';
const at = '2026-11-28T08:00:00.000Z';
const subscribed: WebhookSubscriptionEvent = {
  type: 'WebhookSubscribed',
  data: { subscriptionId, supplier: 'supplier-a', url: 'https://hooks.example.com/a', kinds: ['line.opened'], fromPosition: 41, subscribedAt: at },
};
const failing: WebhookSubscriptionEvent = {
  type: 'WebhookSubscriptionFailing',
  data: { subscriptionId, messageId: `msg_${'a'.repeat(32)}_100000001_1`, lastError: 'the endpoint answered HTTP 503', failingAt: at },
};

describe('a webhook subscription', () => {
  const spec = deciderSpec(webhookSubscriptionDecider);

  it('when it is made, it is subscribed from the log position given', () => {
    spec
      .given([])
      .when({ type: 'Subscribe', subscriptionId, supplier: 'supplier-a', url: 'https://hooks.example.com/a', kinds: ['line.opened'], fromPosition: 41, at })
      .then([subscribed]);
  });

  it('when its secret is rotated, the next version signs, the previous one until the time given', () => {
    spec
      .given([subscribed])
      .when({ type: 'RotateSecret', supplier: 'supplier-a', previousValidUntil: '2026-11-29T08:00:00.000Z', at })
      .then([{ type: 'WebhookSecretRotated', data: { subscriptionId, secretVersion: 2, previousValidUntil: '2026-11-29T08:00:00.000Z', rotatedAt: at } }]);
  });

  it('when the other supplier, or anyone after its removal, rotates, resumes or removes it, it is refused as unknown', () => {
    for (const command of [
      { type: 'RotateSecret' as const, supplier: 'supplier-b' as const, previousValidUntil: at, at },
      { type: 'Resume' as const, supplier: 'supplier-b' as const, at },
      { type: 'Unsubscribe' as const, supplier: 'supplier-b' as const, at },
    ]) {
      spec.given([subscribed]).when(command).thenRefused('unknown_subscription');
    }
    spec
      .given([subscribed, { type: 'WebhookUnsubscribed', data: { subscriptionId, unsubscribedAt: at } }])
      .when({ type: 'Resume', supplier: 'supplier-a', at })
      .thenRefused('unknown_subscription');
  });

  it('when it is marked failing twice, or resumed while not failing, nothing happens; resumed while failing, it is resumed', () => {
    spec.given([subscribed, failing]).when({ type: 'MarkFailing', messageId: failing.data.messageId, lastError: 'again', at }).thenNothingHappens();
    spec.given([subscribed]).when({ type: 'Resume', supplier: 'supplier-a', at }).thenNothingHappens();
    spec
      .given([subscribed, failing])
      .when({ type: 'Resume', supplier: 'supplier-a', at })
      .then([{ type: 'WebhookSubscriptionResumed', data: { subscriptionId, resumedAt: at } }]);
  });
});

describe("a webhook message's deliveries", () => {
  const spec = deciderSpec(webhookDeliveryDecider);
  const ref = {
    subscriptionId,
    messageId: `msg_${'b'.repeat(32)}_100000001_2`,
    sourceEventId: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
    serviceOrderId: '100000001_2',
    position: 57,
    kind: 'line.opened' as const,
  };
  const failed = (attempt: number, nextAttemptAt: string | null): WebhookDeliveryEvent => ({
    type: 'WebhookDeliveryFailed',
    data: { ...ref, attempt, status: 500, error: 'the endpoint answered HTTP 500', nextAttemptAt, failedAt: at },
  });
  const delivered: WebhookDeliveryEvent = { type: 'WebhookDelivered', data: { ...ref, attempt: 2, status: 200, deliveredAt: at } };

  it('when an attempt fails, it is numbered after the earlier ones, and due again only when its next attempt comes', () => {
    spec
      .given([failed(1, '2026-11-28T08:00:05.000Z')])
      .when({ type: 'RecordDeliveryFailed', ...ref, status: null, error: 'timeout', nextAttemptAt: null, at })
      .then([{ type: 'WebhookDeliveryFailed', data: { ...ref, attempt: 2, status: null, error: 'timeout', nextAttemptAt: null, failedAt: at } }]);
    const state = fold(webhookDeliveryDecider, [failed(1, '2026-11-28T08:00:05.000Z')]);
    expect(isDeliveryDue(state, new Date('2026-11-28T08:00:04.000Z'))).toBe(false);
    expect(isDeliveryDue(state, new Date('2026-11-28T08:00:05.000Z'))).toBe(true);
    expect(state.failingSince).toBe(at);
  });

  it('when it was delivered, it is settled: recording again changes nothing, until someone asks to send it again', () => {
    spec
      .given([failed(1, at), delivered])
      .when({ type: 'RecordDelivered', ...ref, status: 204, at })
      .thenNothingHappens();
    spec
      .given([failed(1, at), delivered])
      .when({ type: 'RecordDeliveryFailed', ...ref, status: 500, error: 'x', nextAttemptAt: at, at })
      .thenNothingHappens();
    expect(isDeliverySettled(fold(webhookDeliveryDecider, [failed(1, at), delivered]))).toBe(true);
    spec
      .given([failed(1, at), delivered])
      .when({ type: 'RequestRedelivery', ...ref, at })
      .then([{ type: 'WebhookRedeliveryRequested', data: { ...ref, requestedAt: at } }]);
    const asked = fold(webhookDeliveryDecider, [failed(1, at), delivered, { type: 'WebhookRedeliveryRequested', data: { ...ref, requestedAt: at } }]);
    expect(isDeliverySettled(asked)).toBe(false);
    expect(isDeliveryDue(asked, new Date(at))).toBe(true);
  });

  it('when a message never attempted is asked to be sent again, it is refused: it will be sent in its turn', () => {
    spec
      .given([])
      .when({ type: 'RequestRedelivery', ...ref, at })
      .thenRefused('never_attempted');
  });
});

describe('what a sale event tells the suppliers', () => {
  const orderDate = (instant: string) => instant.slice(0, 10);
  const product = (saleProductId: number, supplier: 'supplier-a' | 'supplier-b' | null) => ({
    saleProductId,
    sku: `SKU-${saleProductId}`,
    name: 'Canapé',
    qty: 1,
    price: 500,
    wholesalePrice: 300,
    supplier,
    carrier: 'Geodis',
    requiresAppointment: false,
    acknowledgedAt: null,
    preparedAt: null,
    cancelledAt: null,
    trackingNumber: null,
    refusal: null,
    supplierTracking: null,
  });
  const sale = {
    saleId: 1,
    incrementId: '100000001',
    source: 'magento',
    orderedAt: '2026-11-27T10:00:00+01:00',
    currency: 'EUR',
    customer: { email: 'claire@example.org', firstname: 'Claire', lastname: 'Martin', phone: null },
    shippingAddress: { firstname: 'Claire', lastname: 'Martin', street: ['1 rue'], postcode: '69003', city: 'Lyon', country_id: 'FR' },
    billingAddress: null,
    products: [product(1, 'supplier-a'), product(2, 'supplier-b'), product(3, null)],
    payment: null,
    shippingAmount: 0,
    grandTotal: 1500,
    importedAt: at,
    cancelledAt: null,
    refunds: [],
    deliveryAppointment: null,
    deliveryServiceAppointment: null,
  } as never;
  const stored = (event: { type: string; data: object }) =>
    ({ ...event, id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', streamName: 'sale-100000001', revision: 1, position: 90, recordedAt: at, metadata: {} }) as never;

  it('when an order is imported, each drop-shipped line is opened for its supplier, with its get-sales fields and nothing of the customer', () => {
    const messages = webhookMessagesOf(stored({ type: 'SaleImported', data: {} }), null, sale, orderDate);
    expect(messages.map((message) => [message.supplier, message.kind, message.serviceOrderId])).toEqual([
      ['supplier-a', 'line.opened', '100000001_1'],
      ['supplier-b', 'line.opened', '100000001_2'],
    ]);
    expect(messages[0]!.data).toEqual({
      service_order_id: '100000001_1',
      sku: 'SKU-1',
      quantity: 1,
      price: 300,
      order_date: '2026-11-27',
      carrier: 'Geodis',
      reason: 'imported',
    });
    expect(JSON.stringify(messages)).not.toMatch(/Claire|Martin|1 rue|69003/);
  });

  it('when the whole sale is cancelled, only the lines still open are cancelled for their suppliers', () => {
    const before = { ...(sale as object), products: [{ ...product(1, 'supplier-a'), preparedAt: at }, product(2, 'supplier-b'), product(3, null)] } as never;
    const messages = webhookMessagesOf(stored({ type: 'SaleCancelled', data: {} }), before, before, orderDate);
    expect(messages.map((message) => [message.supplier, message.kind, message.serviceOrderId])).toEqual([['supplier-b', 'line.cancelled', '100000001_2']]);
  });
});
