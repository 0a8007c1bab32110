import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/events/command-context.ts';
import { importSale } from '../../src/events/sales/import-sale.ts';
import { webhookDeliveryStreamName } from '../../src/events/webhooks/events.ts';
import { startWebhookDeliverer, type WebhookDelivererOptions } from '../../src/jobs/webhook-deliverer.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../support/api-harness.ts';
import { eventually } from '../support/eventually.ts';
import { anOrder, bearer } from '../rest/supplier/supplier-fixtures.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';
import { startWebhookReceiverThread, type ThreadReceiver } from './webhook-receiver-thread.ts';

/**
 * A subscription's backlog goes out a window at a time: the deliverer prepares a window of messages,
 * the sending thread sends them in order and hands back their outcomes together, and the window's
 * records are written together. What a supplier and the API notice: the drain does not wait for a
 * turn of the event loop per message, and the order per subscription holds through a failure.
 */

type Payload = { data: { service_order_id: string; position: number } };

/** Turns of the event loop kept busy `ms` each, as a server answering requests back to back keeps it. */
const busyLoop = (ms: number) => {
  let turns = 0;
  let running = true;
  const turn = () => {
    if (!running) return;
    turns++;
    const until = performance.now() + ms;
    while (performance.now() < until);
    setImmediate(turn);
  };
  setImmediate(turn);
  return {
    turns: () => turns,
    stop: () => {
      running = false;
    },
  };
};

/** The threads of this process at a lower priority than the default (Linux: each thread's nice value, field 19 of its stat). */
const nicedThreads = (): number =>
  readdirSync('/proc/self/task').filter((thread) => {
    const stat = readFileSync(`/proc/self/task/${thread}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) > 0;
  }).length;

describe("the webhooks' windows", () => {
  let api: ApiHarness;
  let receiver: WebhookReceiver;
  let threadReceiver: ThreadReceiver;
  let supplierA: string;

  const deliverWith = (host: string, ca: Buffer, options: WebhookDelivererOptions = {}) =>
    startWebhookDeliverer(
      api.runtime,
      { tokenSecret: api.runtime.tokenSecret },
      { pollMs: 20, refreshMs: 50, retryDelaysMs: [300], failingAfterMs: 60_000, ...options, send: { allowHosts: [host], ca } },
    );
  const subscribe = async (url: string): Promise<string> => {
    const answer = await api.request
      .post('/api/supplier-a/webhooks')
      .set(bearer(supplierA))
      .send({ url, kinds: ['line.opened'] });
    expect(answer.status).toBe(201);
    return answer.body.webhook.id as string;
  };
  const unsubscribe = (id: string) => api.request.delete(`/api/supplier-a/webhooks/${id}`).set(bearer(supplierA));
  /** `count` orders of one supplier-a line each, their service_order_ids in log order. */
  const importLines = async (count: number): Promise<string[]> => {
    const lines: string[] = [];
    for (let index = 0; index < count; index++) {
      const order = anOrder([{ supplier: 'supplier-a' }]);
      const { saleProductIds } = await importSale(api.runtime.salesDeps, order, systemContext());
      lines.push(`${order.increment_id}_${saleProductIds[0]}`);
    }
    await readModelsCaughtUp(api.runtime);
    return lines;
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    threadReceiver = await startWebhookReceiverThread();
    api = await startApi({ env: { WEBHOOK_TEST_RECEIVERS: `${receiver.host},${threadReceiver.host}` } });
    supplierA = await api.tokenFor('supplier-a');
    await readModelsCaughtUp(api.runtime);
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await receiver?.close();
    await threadReceiver?.close();
  });

  it('when the event loop is busy, as under API load, a backlog is delivered several messages per turn of that loop, each once and in log order, by a thread of lower priority', async () => {
    const id = await subscribe(threadReceiver.url());
    const count = 192;
    const lines = await importLines(count);
    const busy = busyLoop(40);
    const niced = nicedThreads();
    const deliverer = deliverWith(threadReceiver.host, threadReceiver.ca);
    try {
      await eventually(async () => (await threadReceiver.received()).length >= count, 60_000);
      const turns = busy.turns();
      // The sending thread yields the cores to the thread answering the API.
      expect(nicedThreads()).toBe(niced + 1);
      const received = await threadReceiver.received();
      expect(received).toHaveLength(count);
      // A message's id ends with its line's service_order_id (`msg_<event>_<line>`).
      expect(received.map((messageId) => messageId.split('_').slice(-2).join('_'))).toEqual(lines);
      // Sent from the event loop, each message took one turn of it at least: `count` turns or more.
      expect(turns).toBeLessThan(count / 2);
    } finally {
      busy.stop();
      await deliverer.stop();
      await unsubscribe(id);
    }
  });

  it('when the receiver refuses a message in the middle of a window, nothing after it is sent until it is delivered; then the rest follows in log order, each attempt recorded', async () => {
    const id = await subscribe(receiver.url('/windows'));
    const lines = await importLines(20);
    // The fifth message of the first window of eight refused once.
    receiver.answerNext(200, 200, 200, 200, 500);
    const deliverer = deliverWith(receiver.host, receiver.ca, { windowSize: 8 });
    try {
      await eventually(() => receiver.received.length >= 21, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const payloads = receiver.received.map((delivery) => JSON.parse(delivery.body) as Payload);
      expect(payloads.map((payload) => payload.data.service_order_id)).toEqual([...lines.slice(0, 5), ...lines.slice(4)]);
      const ids = receiver.received.map((delivery) => delivery.headers['webhook-id']!);
      expect(ids[5]).toBe(ids[4]);
      expect(receiver.received[5]!.at - receiver.received[4]!.at).toBeGreaterThanOrEqual(250);

      // Each message's stream: the refused one failed then delivered, every other one delivered once.
      for (const [index, messageId] of [...new Set(ids)].entries()) {
        const types = (await api.runtime.eventStore.readStream(webhookDeliveryStreamName(id, messageId))).map((event) => event.type);
        expect(types, lines[index]).toEqual(index === 4 ? ['WebhookDeliveryFailed', 'WebhookDelivered'] : ['WebhookDelivered']);
      }
      await readModelsCaughtUp(api.runtime);
      const listed = await api.request.get(`/api/supplier-a/webhooks/${id}/deliveries`).set(bearer(supplierA));
      expect(listed.body.deliveries).toHaveLength(20);
      expect(listed.body.deliveries.find((delivery: { service_order_id: string }) => delivery.service_order_id === lines[4])).toMatchObject({
        status: 'delivered',
        attempts: 2,
      });
    } finally {
      await deliverer.stop();
      await unsubscribe(id);
    }
  });
});
