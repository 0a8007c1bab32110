import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.ts';
import { eventually } from '../support/eventually.ts';
import { startServiceProcess, type ServiceProcess } from '../support/service-command.ts';
import { anOrder } from '../rest/supplier/supplier-fixtures.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

/**
 * The deliverer as `npm start` runs it, killed with SIGKILL while deliveries are in flight: after the
 * restart every message arrives, and a message sent twice carries the same webhook-id both times.
 */
describe('webhook deliveries across a SIGKILL of the service', () => {
  let dataDir: string;
  let receiver: WebhookReceiver;
  let server: ServiceProcess | undefined;
  let base = '';

  const start = async (): Promise<void> => {
    server = await startServiceProcess(dataDir, { WEBHOOK_TEST_RECEIVERS: receiver.host, WEBHOOK_TEST_CA_FILE: receiver.certFile });
    base = server.origin;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'webhook-crash-'));
    receiver = await startWebhookReceiver();
  });

  afterAll(async () => {
    await server?.kill();
    await receiver?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'when the service is killed while delivering, every message arrives after the restart, a repeat with the same webhook-id and body',
    { timeout: 120_000 },
    async () => {
      const token = (await runCli(dataDir, ['token', 'issue', '--group', 'supplier-a'])).stdout.trimEnd().split('\n').at(-1)!;
      await start();
      const subscribed = await fetch(`${base}/api/supplier-a/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url(), kinds: ['line.opened'] }),
      });
      expect(subscribed.status).toBe(201);
      const { secret } = (await subscribed.json()) as { secret: string };

      // 40 orders of one supplier-a line each, imported by the CLI beside the server; each answer takes 40 ms.
      receiver.answerAfter(40);
      const orders = Array.from({ length: 40 }, () => anOrder([{ supplier: 'supplier-a' }]));
      const file = path.join(dataDir, 'orders.json');
      await writeFile(file, JSON.stringify(orders));
      expect((await runCli(dataDir, ['orders', 'import', file])).code).toBe(0);
      await eventually(() => receiver.received.length >= 10, 30_000);
      await server!.kill();
      const beforeRestart = receiver.received.length;
      expect(beforeRestart).toBeLessThan(40);

      await start();
      const increments = new Set(orders.map((order) => order.increment_id));
      const seen = () =>
        new Set(receiver.received.map((delivery) => (JSON.parse(delivery.body) as { data: { service_order_id: string } }).data.service_order_id.split('_')[0]));
      await eventually(() => seen().size === increments.size, 60_000);
      expect(seen()).toEqual(increments);

      const verifier = new Webhook(secret);
      const byId = new Map<string, string>();
      for (const delivery of receiver.received) {
        expect(() => verifier.verify(delivery.body, delivery.headers)).not.toThrow();
        const id = delivery.headers['webhook-id']!;
        const { data } = JSON.parse(delivery.body) as { data: { service_order_id: string; event_id: string } };
        const same = `${data.service_order_id} ${data.event_id}`;
        // A repeat is the same message: the same id for the same line and event.
        if (byId.has(id)) expect(byId.get(id)).toBe(same);
        byId.set(id, same);
      }
      expect(byId.size).toBe(40);
      // Each message first arrived in log order, across the restart.
      const firstArrivals = new Map<string, number>();
      for (const delivery of receiver.received) {
        const id = delivery.headers['webhook-id']!;
        if (!firstArrivals.has(id)) firstArrivals.set(id, (JSON.parse(delivery.body) as { data: { position: number } }).data.position);
      }
      const positions = [...firstArrivals.values()];
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    },
  );
});
