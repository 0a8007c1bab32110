import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/events/command-context.ts';
import { cancelSale } from '../../src/events/sales/cancel-sale.ts';
import { updateSaleAddress } from '../../src/events/sales/update-address.ts';
import { startWebhookDeliverer, type WebhookDeliverer, type WebhookDelivererOptions } from '../../src/jobs/webhook-deliverer.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../support/api-harness.ts';
import { eventually } from '../support/eventually.ts';
import { anOrder, bearer, importOrder } from '../rest/supplier/supplier-fixtures.ts';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from './webhook-receiver.ts';

/**
 * The suppliers' webhooks, end to end: a supplier subscribes through its API, the deliverer (the job
 * the server runs) sends from the log to a real HTTPS receiver, and every delivery is judged by the
 * Standard Webhooks library (`standardwebhooks`), not by the service's own signing code.
 */

type Payload = { type: string; timestamp: string; data: Record<string, unknown> & { event_id: string; position: number; service_order_id: string } };
const payloadOf = (delivery: ReceivedDelivery): Payload => JSON.parse(delivery.body) as Payload;

describe("the suppliers' webhooks", () => {
  let api: ApiHarness;
  let receiver: WebhookReceiver;
  let deliverer: WebhookDeliverer;
  let supplierA: string;
  let supplierB: string;
  const subscriptions: { supplier: string; token: string; id: string }[] = [];

  /** The deliverer as the server runs it, with the specs' receiver trusted and short waits; `options` change some. */
  const deliverWith = (options: WebhookDelivererOptions = {}): WebhookDeliverer =>
    startWebhookDeliverer(
      api.runtime,
      { tokenSecret: api.runtime.tokenSecret },
      {
        pollMs: 20,
        refreshMs: 50,
        retryDelaysMs: [300, 600],
        failingAfterMs: 60_000,
        ...options,
        send: { allowHosts: [receiver.host], ca: receiver.ca, ...options.send },
      },
    );
  const subscribe = async (supplier: 'supplier-a' | 'supplier-b', token: string, body: Record<string, unknown>) => {
    const answer = await api.request
      .post(`/api/${supplier}/webhooks`)
      .set(bearer(token))
      .send({ url: receiver.url(`/${supplier}`), ...body });
    if (answer.status === 201) subscriptions.push({ supplier, token, id: answer.body.webhook.id });
    return answer;
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    api = await startApi({ env: { WEBHOOK_TEST_RECEIVERS: receiver.host } });
    supplierA = await api.tokenFor('supplier-a');
    supplierB = await api.tokenFor('supplier-b');
    await readModelsCaughtUp(api.runtime);
    deliverer = deliverWith();
  }, 60_000);

  afterEach(async () => {
    // Each spec starts without subscriptions and with an empty receiver.
    for (const subscription of subscriptions.splice(0)) {
      await api.request.delete(`/api/${subscription.supplier}/webhooks/${subscription.id}`).set(bearer(subscription.token));
    }
    await readModelsCaughtUp(api.runtime);
    receiver.answerAlways(null);
    receiver.received.splice(0);
  });

  afterAll(async () => {
    await deliverer?.stop();
    await api?.close();
    await receiver?.close();
  });

  it('when a supplier subscribes, the secret is in the answer once; each line opened for it arrives signed as Standard Webhooks says, one id per message, in log order, with its get-sales fields', async () => {
    const answer = await subscribe('supplier-a', supplierA, {});
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      success: true,
      webhook: { url: receiver.url('/supplier-a'), status: 'active' },
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(answer.body.webhook.kinds).toEqual(['line.opened', 'line.cancelled', 'line.address_changed', 'line.taken_away']);
    const listed = await api.request.get('/api/supplier-a/webhooks').set(bearer(supplierA));
    expect(listed.body.webhooks).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(answer.body.secret.slice(6, 20));
    // supplier-b sees none of supplier-a's subscriptions.
    expect((await api.request.get('/api/supplier-b/webhooks').set(bearer(supplierB))).body.webhooks).toEqual([]);

    const lines = [
      ...(await importOrder(
        api,
        anOrder([{ supplier: 'supplier-a', sku: 'CANAPE-3P', qty: 2, wholesalePrice: 420, carrier: 'Geodis' }, { supplier: 'supplier-b' }]),
      )),
      ...(await importOrder(api, anOrder([{ supplier: 'supplier-a', sku: 'TABLE-OAK', wholesalePrice: 150, carrier: 'Kuehne' }]))),
      ...(await importOrder(api, anOrder([{ supplier: 'supplier-a', sku: 'LAMPE' }]))),
    ];
    const forA = [lines[0], lines[2], lines[3]];
    await eventually(() => receiver.received.length >= 3, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(3);

    const verifier = new Webhook(answer.body.secret);
    for (const delivery of receiver.received) {
      expect(() => verifier.verify(delivery.body, delivery.headers)).not.toThrow();
      expect(delivery.headers['content-type']).toBe('application/json');
    }
    // A body changed in transit fails the library's check.
    const first = receiver.received[0]!;
    expect(() => verifier.verify(first.body.replace('CANAPE', 'CHAISE'), first.headers)).toThrow();
    expect(new Set(receiver.received.map((delivery) => delivery.headers['webhook-id'])).size).toBe(3);
    const payloads = receiver.received.map(payloadOf);
    expect(payloads.map((payload) => payload.type)).toEqual(['line.opened', 'line.opened', 'line.opened']);
    expect(payloads.map((payload) => payload.data.service_order_id)).toEqual(forA);
    const positions = payloads.map((payload) => payload.data.position);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);

    // The same fields as the supplier's feed gives for the line, the label link signed alike.
    const feed = await api.request.get('/api/supplier-a/get-sales').set(bearer(supplierA));
    const inFeed = (feed.body as { service_order_id: string }[]).find((line) => line.service_order_id === forA[0]) as Record<string, unknown>;
    const { link_to_label: feedLink, ...feedFields } = inFeed;
    const { link_to_label: hookLink, event_id: eventId, position, reason, ...hookFields } = payloads[0]!.data;
    expect(hookFields).toEqual(feedFields);
    expect(hookFields).toMatchObject({ sku: 'CANAPE-3P', quantity: 2, price: 420, carrier: 'Geodis' });
    expect(reason).toBe('imported');
    // The same label, under a link signed alike (an expiry and a signature).
    expect(new URL(String(hookLink)).pathname).toBe(new URL(String(feedLink)).pathname);
    expect(new URL(String(hookLink)).search).toMatch(/^\?expires=\d+&signature=[\w-]+$/);
    expect(typeof eventId).toBe('string');
    expect(position).toBeGreaterThan(0);

    // Nothing about the customer travels.
    expect(receiver.received.map((delivery) => delivery.body).join('')).not.toMatch(/Claire|Martin|Lilas|example\.org/);

    // Each delivery is listed with its outcome, once recorded.
    const listDeliveries = () => api.request.get(`/api/supplier-a/webhooks/${answer.body.webhook.id}/deliveries`).set(bearer(supplierA));
    await eventually(async () => {
      await readModelsCaughtUp(api.runtime);
      return (await listDeliveries()).body.deliveries.filter((delivery: { status: string }) => delivery.status === 'delivered').length === 3;
    }, 10_000);
    const deliveries = await listDeliveries();
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.deliveries.map((delivery: { id: string }) => delivery.id)).toEqual(
      receiver.received.map((delivery) => delivery.headers['webhook-id']).reverse(),
    );
    expect(deliveries.body.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 1, last_status: 200, last_error: null, kind: 'line.opened' });
  });

  it('when the receiver answers 500 for a while, each message is retried with backoff and nothing after it is sent meanwhile; then everything arrives in order', async () => {
    const answer = await subscribe('supplier-a', supplierA, { kinds: ['line.opened'] });
    receiver.answerNext(500, 500);
    const lines = [...(await importOrder(api, anOrder([{ supplier: 'supplier-a' }]))), ...(await importOrder(api, anOrder([{ supplier: 'supplier-a' }])))];
    await eventually(() => receiver.received.length >= 4, 10_000);
    const ids = receiver.received.map((delivery) => delivery.headers['webhook-id']);
    // The first message three times (500, 500, 200), the same id each time; then the second.
    expect(ids[0]).toBe(ids[1]);
    expect(ids[1]).toBe(ids[2]);
    expect(ids[3]).not.toBe(ids[0]);
    expect(receiver.received.map((delivery) => payloadOf(delivery).data.service_order_id)).toEqual([lines[0], lines[0], lines[0], lines[1]]);
    // The waits grow: 300 ms after the first failure, 600 after the second.
    const at = receiver.received.map((delivery) => delivery.at);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(250);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(550);
    const verifier = new Webhook(answer.body.secret);
    for (const delivery of receiver.received) expect(() => verifier.verify(delivery.body, delivery.headers)).not.toThrow();

    let oldest: unknown;
    await eventually(async () => {
      await readModelsCaughtUp(api.runtime);
      const listed = await api.request.get(`/api/supplier-a/webhooks/${answer.body.webhook.id}/deliveries`).set(bearer(supplierA));
      oldest = listed.body.deliveries.at(-1);
      return (oldest as { status?: string } | undefined)?.status === 'delivered';
    }, 10_000);
    expect(oldest).toMatchObject({ service_order_id: lines[0], status: 'delivered', attempts: 3, last_status: 200 });
  });

  it('when the deliverer starts again from a checkpoint left behind (a crash after the records, before the checkpoint moved), the messages it had delivered are not sent again', async () => {
    const answer = await subscribe('supplier-a', supplierA, { kinds: ['line.opened'] });
    const checkpoints = api.runtime.readStore.collection<{ _id: string; position: number }>('job_checkpoints');
    const checkpointId = `webhook-deliveries:${answer.body.webhook.id}`;
    const positionAt = async () => (await checkpoints.findOne({ _id: checkpointId }))?.position ?? -1;
    const lines = [...(await importOrder(api, anOrder([{ supplier: 'supplier-a' }]))), ...(await importOrder(api, anOrder([{ supplier: 'supplier-a' }])))];
    await eventually(() => receiver.received.length >= 2, 10_000);
    // Just before the first message's event: as if the loop had died before moving its checkpoint.
    const before = payloadOf(receiver.received[0]!).data.position - 1;
    // Both recorded first: the checkpoint moves past a message once its delivery is recorded.
    const second = payloadOf(receiver.received[1]!).data.position;
    await eventually(async () => (await positionAt()) >= second, 10_000);

    await deliverer.stop();
    await checkpoints.updateOne({ _id: checkpointId }, { $set: { position: before } });
    deliverer = deliverWith();
    const later = await importOrder(api, anOrder([{ supplier: 'supplier-a' }]));
    await eventually(() => receiver.received.length >= 3, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(receiver.received.map((delivery) => payloadOf(delivery).data.service_order_id)).toEqual([...lines, ...later]);
  });

  it('when staff cancel a line, change the address, or hand a refused line to the other supplier, each supplier is told what concerns it', async () => {
    await subscribe('supplier-a', supplierA, {});
    await subscribe('supplier-b', supplierB, { kinds: ['line.opened'] });
    const [cancelled, moved, refused] = await importOrder(api, anOrder([{ supplier: 'supplier-a' }, { supplier: 'supplier-a' }, { supplier: 'supplier-a' }]));
    const incrementId = cancelled!.split('_')[0]!;
    // The three lines opened for supplier-a first; then only what follows counts.
    const openedFirst = () =>
      receiver.received.filter(
        (delivery) => delivery.path === '/supplier-a' && [cancelled, moved, refused].includes(payloadOf(delivery).data.service_order_id),
      );
    await eventually(() => openedFirst().length === 3, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    receiver.received.splice(0);

    await cancelSale(api.runtime.salesDeps, { incrementId, saleProductIds: [Number(cancelled!.split('_')[1])], reason: 'client' }, systemContext());
    const shippingAddress = { firstname: 'Claire', lastname: 'Martin', street: ['3 place Bellecour'], postcode: '69002', city: 'Lyon', country_id: 'FR' };
    await updateSaleAddress(api.runtime.salesDeps, { incrementId, shippingAddress: shippingAddress as never }, systemContext());
    // The refusal through the supplier's API, the hand-over through the core API.
    const refusal = await api.request.post('/api/supplier-a/refuse-sale').set(bearer(supplierA)).send({ service_order_id: refused, reason: 'out_of_stock' });
    expect(refusal.body).toEqual({ success: true, message: 'Votre refus du produit a bien été enregistré' });
    const handover = await api.request
      .post('/api/supplier-line-handover')
      .set(bearer(await api.tokenFor('core')))
      .send({ service_order_id: refused });
    expect(handover.status).toBe(200);

    await eventually(() => receiver.received.length >= 5, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const toldTo = (path: string) => receiver.received.filter((delivery) => delivery.path === path).map(payloadOf);
    // supplier-a, in log order: the cancellation, the new address of its lines still open, the line taken away.
    const toA = toldTo('/supplier-a');
    expect(toA.map((message) => [message.type, message.data.service_order_id])).toEqual([
      ['line.cancelled', cancelled],
      ['line.address_changed', moved],
      ['line.address_changed', refused],
      ['line.taken_away', refused],
    ]);
    expect(toA[1]!.data.link_to_label).toMatch(/\/api\/files\/labels\/supplier-a\/.*\.pdf\?expires=\d+&signature=/);
    // supplier-b: the line handed to it, with its own label link.
    const toB = toldTo('/supplier-b');
    expect(toB.map((message) => [message.type, message.data.service_order_id])).toEqual([['line.opened', refused]]);
    expect(toB[0]!.data).toMatchObject({ reason: 'handed_over' });
    expect(String(toB[0]!.data.link_to_label)).toContain('/labels/supplier-b/');
  });

  it('when the secret is rotated, deliveries carry both signatures for a day, each verifying with its own secret; the new secret is shown once', async () => {
    const subscribed = await subscribe('supplier-a', supplierA, { kinds: ['line.opened'] });
    const rotated = await api.request.post(`/api/supplier-a/webhooks/${subscribed.body.webhook.id}/rotate-secret`).set(bearer(supplierA));
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(subscribed.body.secret);
    expect(Date.parse(rotated.body.previous_secret_valid_until) - Date.now()).toBeGreaterThan(23 * 3600_000);
    await importOrder(api, anOrder([{ supplier: 'supplier-a' }]));
    await eventually(() => receiver.received.length >= 1, 10_000);
    const [delivery] = receiver.received;
    expect(delivery!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    // A receiver still on the old secret, and one already on the new, both accept it.
    expect(() => new Webhook(subscribed.body.secret).verify(delivery!.body, delivery!.headers)).not.toThrow();
    expect(() => new Webhook(rotated.body.secret).verify(delivery!.body, delivery!.headers)).not.toThrow();
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(delivery!.body, delivery!.headers)).toThrow();
  });

  it('when a subscription names a loopback, private or plain-http address, or an unknown kind, it is refused with the supplier envelope and nothing is recorded', async () => {
    const head = await api.runtime.eventStore.headPosition();
    const refusals = [
      [{ url: 'https://127.0.0.1/hooks' }, /does not resolve to a public address|internal address/],
      [{ url: 'https://10.1.2.3/hooks' }, /internal address/],
      [{ url: 'https://169.254.169.254/latest' }, /internal address/],
      [{ url: 'https://[::1]/hooks' }, /internal address/],
      [{ url: 'https://localhost:1/hooks' }, /public address/],
      [{ url: 'http://hooks.example.com/' }, /must be https/],
      [{ url: 'not a url' }, /not valid/],
      [{ url: receiver.url(), kinds: ['line.shipped'] }, /Invalid kinds/],
      [{ url: receiver.url(), extra: 1 }, /Invalid|Unrecognized/],
    ] as const;
    for (const [body, message] of refusals) {
      const answer = await api.request.post('/api/supplier-a/webhooks').set(bearer(supplierA)).send(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.success, JSON.stringify(body)).toBe(false);
      expect(answer.body.message, JSON.stringify(body)).toMatch(message);
    }
    // Another supplier's token, or none: 401, as for its other routes.
    expect((await api.request.post('/api/supplier-a/webhooks').set(bearer(supplierB)).send({ url: receiver.url() })).status).toBe(401);
    expect((await api.request.post('/api/supplier-a/webhooks').send({ url: receiver.url() })).status).toBe(401);
    // Nothing recorded for any of them (the running deliverer may record an earlier spec's delivery meanwhile).
    const appended = await api.runtime.eventStore.readAll({ fromPosition: head, maxCount: 1_000 });
    expect(appended.map((event) => event.type).filter((type) => !type.startsWith('WebhookDeliver'))).toEqual([]);
  });

  it('when a loop has caught up, a new line is sent as soon as it is recorded, not at the next look at the log', async () => {
    await deliverer.stop();
    const waitingLong = deliverWith({ pollMs: 60_000 });
    try {
      expect((await subscribe('supplier-a', supplierA, {})).status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 300)); // the subscription's loop started, found nothing and waits
      const [line] = await importOrder(api, anOrder([{ supplier: 'supplier-a' }]));
      await eventually(() => receiver.received.length === 1, 5_000);
      expect(JSON.parse(receiver.received[0]!.body).data.service_order_id).toBe(line);
    } finally {
      await waitingLong.stop();
      deliverer = deliverWith();
    }
  });

  it("when a host resolves to a private address after it was registered, the delivery is refused and recorded as failed, and nothing reaches the address; another supplier's subscription is a 404", async () => {
    // hooks.example.test resolves to a public address at registration, to loopback (where the receiver listens) afterwards.
    let resolved = '93.184.215.14';
    const resolve = async () => [{ address: resolved, family: 4 }];
    api.runtime.webhooks.urlPolicy.resolve = resolve;
    await deliverer.stop();
    const rebinding = deliverWith({ send: { resolve }, retryDelaysMs: [60_000] });
    try {
      const port = new URL(receiver.url()).port;
      const subscribed = await subscribe('supplier-a', supplierA, { url: `https://hooks.example.test:${port}/rebound` });
      expect(subscribed.status).toBe(201);
      resolved = '127.0.0.1';
      const [line] = await importOrder(api, anOrder([{ supplier: 'supplier-a' }]));
      const id = subscribed.body.webhook.id;
      await eventually(async () => {
        await readModelsCaughtUp(api.runtime);
        const listed = await api.request.get(`/api/supplier-a/webhooks/${id}/deliveries`).set(bearer(supplierA));
        return listed.body.deliveries.length === 1;
      }, 10_000);
      const listed = await api.request.get(`/api/supplier-a/webhooks/${id}/deliveries`).set(bearer(supplierA));
      expect(listed.body.deliveries[0]).toMatchObject({ service_order_id: line, status: 'retrying', attempts: 1, last_status: null });
      expect(listed.body.deliveries[0].last_error).toMatch(/refused: .*public address/);
      expect(receiver.received).toEqual([]);
      // supplier-b cannot see, resume, rotate or remove supplier-a's subscription.
      expect((await api.request.get(`/api/supplier-b/webhooks/${id}/deliveries`).set(bearer(supplierB))).status).toBe(404);
      expect((await api.request.post(`/api/supplier-b/webhooks/${id}/rotate-secret`).set(bearer(supplierB))).status).toBe(404);
      expect((await api.request.delete(`/api/supplier-b/webhooks/${id}`).set(bearer(supplierB))).body).toEqual({
        success: false,
        message: 'Webhook subscription not found',
      });
    } finally {
      await rebinding.stop();
      delete api.runtime.webhooks.urlPolicy.resolve;
      deliverer = deliverWith();
    }
  });

  it('when deliveries keep failing past the failing period, the subscription is marked failing and nothing more is sent; resumed, it goes on from the message it stopped at; a delivery can be sent again on request', async () => {
    await deliverer.stop();
    const failFast = deliverWith({ retryDelaysMs: [100], failingAfterMs: 500 });
    try {
      const subscribed = await subscribe('supplier-a', supplierA, { kinds: ['line.opened'] });
      const id = subscribed.body.webhook.id;
      receiver.answerAlways(503);
      const lines = [...(await importOrder(api, anOrder([{ supplier: 'supplier-a' }]))), ...(await importOrder(api, anOrder([{ supplier: 'supplier-a' }])))];
      await eventually(async () => {
        await readModelsCaughtUp(api.runtime);
        const listed = await api.request.get('/api/supplier-a/webhooks').set(bearer(supplierA));
        return listed.body.webhooks[0]?.status === 'failing';
      }, 10_000);
      const listed = await api.request.get('/api/supplier-a/webhooks').set(bearer(supplierA));
      expect(listed.body.webhooks[0].failing).toMatchObject({ last_error: 'the endpoint answered HTTP 503' });
      const metrics = await api.request.get('/metrics').set(bearer(await api.tokenFor('analyst')));
      expect(metrics.text).toMatch(/^webhook_subscriptions_failing 1$/m);
      const triedWhileFailing = receiver.received.length;
      expect(new Set(receiver.received.map((delivery) => payloadOf(delivery).data.service_order_id))).toEqual(new Set([lines[0]]));
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(receiver.received.length).toBe(triedWhileFailing);

      receiver.answerAlways(null);
      const resumed = await api.request.post(`/api/supplier-a/webhooks/${id}/resume`).set(bearer(supplierA));
      expect(resumed.body).toEqual({ success: true, message: 'Votre abonnement a repris : les envois reprennent là où ils s’étaient arrêtés' });
      await eventually(() => receiver.received.some((delivery) => payloadOf(delivery).data.service_order_id === lines[1]), 10_000);
      const order = receiver.received.slice(triedWhileFailing).map((delivery) => payloadOf(delivery).data.service_order_id);
      expect(order).toEqual([lines[0], lines[1]]);

      // Sent again on request: the same message, the same id (once its delivery is recorded).
      let last: { id: string; status: string; service_order_id: string } | undefined;
      await eventually(async () => {
        await readModelsCaughtUp(api.runtime);
        last = (await api.request.get(`/api/supplier-a/webhooks/${id}/deliveries`).set(bearer(supplierA))).body.deliveries[0];
        return last?.service_order_id === lines[1] && last?.status === 'delivered';
      }, 10_000);
      expect(last).toMatchObject({ service_order_id: lines[1], status: 'delivered' });
      const before = receiver.received.length;
      const resend = await api.request.post(`/api/supplier-a/webhooks/${id}/deliveries/${last!.id}/resend`).set(bearer(supplierA));
      expect(resend.status).toBe(202);
      await eventually(() => receiver.received.length > before, 10_000);
      expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(last!.id);
      const unknown = await api.request.post(`/api/supplier-a/webhooks/${id}/deliveries/msg_${'0'.repeat(32)}_1_1/resend`).set(bearer(supplierA));
      expect(unknown.status).toBe(404);
    } finally {
      await failFast.stop();
      deliverer = deliverWith();
    }
  });

  it("when one supplier's receiver never answers, its attempts time out and are recorded, while the other supplier's messages arrive and its feed answers", async () => {
    await deliverer.stop();
    const impatient = deliverWith({ send: { timeoutMs: 500 }, retryDelaysMs: [60_000] });
    try {
      const hanging = await subscribe('supplier-a', supplierA, { url: receiver.url('/hangs') });
      await subscribe('supplier-b', supplierB, {});
      receiver.answerWhen((path) => (path === '/hangs' ? 'hang' : 200));
      const [lineA, lineB] = await importOrder(api, anOrder([{ supplier: 'supplier-a' }, { supplier: 'supplier-b' }]));
      await eventually(
        () => receiver.received.some((delivery) => delivery.path === '/supplier-b' && payloadOf(delivery).data.service_order_id === lineB),
        10_000,
      );
      const feed = await api.request.get('/api/supplier-b/get-sales').set(bearer(supplierB));
      expect(feed.status).toBe(200);
      await eventually(async () => {
        await readModelsCaughtUp(api.runtime);
        const listed = await api.request.get(`/api/supplier-a/webhooks/${hanging.body.webhook.id}/deliveries`).set(bearer(supplierA));
        return listed.body.deliveries.length === 1;
      }, 10_000);
      const listed = await api.request.get(`/api/supplier-a/webhooks/${hanging.body.webhook.id}/deliveries`).set(bearer(supplierA));
      expect(listed.body.deliveries[0]).toMatchObject({ service_order_id: lineA, status: 'retrying', last_status: null, last_error: 'no answer within 0.5 s' });
    } finally {
      receiver.answerWhen(null);
      await impatient.stop();
      deliverer = deliverWith();
    }
  });
});
