import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { cliArguments, projectRoot } from '../test/support/service-command.ts';
import { startWebhookReceiver } from '../test/webhooks/webhook-receiver.ts';
import { machine } from './bench-runtime.ts';
import { runLoad } from './http-load.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

/**
 * `npm run bench:webhooks`: the suppliers' webhooks, the service as `npm start` runs it, a loopback
 * HTTPS receiver in the bench's process (answering 200 at once).
 *
 * 1. Latency: BENCH_ORDERS_LIVE orders (default 300) imported one after another through the REST
 *    import, each supplier-a line timed from the import's answer to its delivery at the receiver.
 * 2. Backlog: the server stopped, BENCH_BACKLOG orders (default 10,000) imported by the CLI, the
 *    server started again: the rate at which the backlog drains to one receiver, alone; then again
 *    while get-sales of supplier-b is asked back to back (10 connections, 10 s), against get-sales
 *    alone afterwards.
 *
 * Targets (issue: suppliers told): p99 under 1 s; 500 deliveries/s or more; get-sales p99 within 2x.
 */
const liveOrders = Number(process.env.BENCH_ORDERS_LIVE ?? 300);
const backlog = Number(process.env.BENCH_BACKLOG ?? 10_000);
const run = promisify(execFile);

/** An order of one supplier-a line, as the import contract takes it. */
let lastIncrementId = 700_000_000;
const anOrder = () => ({
  increment_id: String(++lastIncrementId),
  created_at: '2026-11-27T09:14:00+01:00',
  customer: { email: 'client@example.org', firstname: 'Claire', lastname: 'Martin' },
  shipping_address: { firstname: 'Claire', lastname: 'Martin', street: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon', country_id: 'FR' },
  items: [{ sku: 'CANAPE-3P', name: 'Canapé', qty_ordered: 1, price: 100, supplier: 'supplier-a', wholesale_price: 60, carrier: 'Geodis' }],
});

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
};

console.log(`bench:webhooks on ${machine()}`);
console.log(`uptime: ${execFileSync('uptime').toString().trim()}`);

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-webhooks-'));
const receiver = await startWebhookReceiver();
const cli = async (...args: string[]) =>
  (
    await run(process.execPath, cliArguments(...args), {
      cwd: projectRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      maxBuffer: 64 * 1024 * 1024,
    })
  ).stdout;
const env = { WEBHOOK_TEST_RECEIVERS: receiver.host, WEBHOOK_TEST_CA_FILE: receiver.certFile, LOG_LEVEL: 'warn' };
let server: ServerProcess | undefined;
try {
  const token = async (group: string) => (await cli('token', 'issue', '--group', group)).trimEnd().split('\n').at(-1)!;
  const [core, supplierA, supplierB] = [await token('core'), await token('supplier-a'), await token('supplier-b')];
  server = await startServerProcess(dataDir, env);
  const subscribed = await fetch(`${server.origin}/api/supplier-a/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${supplierA}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url(), kinds: ['line.opened'] }),
  });
  if (subscribed.status !== 201) throw new Error(`subscription refused: ${await subscribed.text()}`);

  // 1. From the import's answer to the delivery, one order at a time.
  const arrivals = new Map<string, number>();
  const seenUpTo = { index: 0 };
  const collect = () => {
    for (; seenUpTo.index < receiver.received.length; seenUpTo.index++) {
      const delivery = receiver.received[seenUpTo.index]!;
      arrivals.set((JSON.parse(delivery.body) as { data: { service_order_id: string } }).data.service_order_id, delivery.at);
    }
  };
  const latencies: number[] = [];
  for (let index = 0; index < liveOrders; index++) {
    const order = anOrder();
    const answer = await fetch(`${server.origin}/api/api-add-new-order-api-shopping`, {
      method: 'POST',
      headers: { authorization: `Bearer ${core}`, 'content-type': 'application/json' },
      body: JSON.stringify(order),
    });
    const answeredAt = Date.now();
    const { supplier_lines: lines } = (await answer.json()) as { supplier_lines: { service_order_id: string }[] };
    const line = lines[0]!.service_order_id;
    for (;;) {
      collect();
      const at = arrivals.get(line);
      if (at !== undefined) {
        latencies.push(Math.max(0, at - answeredAt));
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
  console.log(
    `\n1. import answered -> delivered, ${liveOrders} orders one at a time: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${Math.max(...latencies)} ms`,
  );

  // 2. A backlog drained alone, then another while get-sales is loaded, then get-sales alone.
  const drain = async (withLoad: boolean) => {
    await server!.stop();
    const file = path.join(dataDir, 'backlog.json');
    await writeFile(file, JSON.stringify(Array.from({ length: backlog }, () => anOrder())));
    await cli('orders', 'import', file);
    const before = receiver.received.length;
    server = await startServerProcess(dataDir, env);
    const origin = server.origin;
    const load = withLoad ? feed(origin) : undefined;
    while (receiver.received.length - before < backlog) await new Promise((resolve) => setTimeout(resolve, 50));
    const drained = receiver.received.slice(before);
    return { seconds: (drained.at(-1)!.at - drained[0]!.at) / 1000, load: await load };
  };
  const feed = (origin: string) =>
    runLoad({ origin, connections: 10, seconds: 10, next: () => ({ path: '/api/supplier-b/get-sales', headers: { authorization: `Bearer ${supplierB}` } }) });
  const alone = await drain(false);
  console.log(
    `2. backlog of ${backlog.toLocaleString('en')} messages to one receiver, nothing else asked: ${(backlog / alone.seconds).toFixed(0)} deliveries/s (${alone.seconds.toFixed(1)} s)`,
  );
  const loaded = await drain(true);
  const feedAlone = await feed(server.origin);
  console.log(
    `3. the same while get-sales (supplier-b) is asked back to back on 10 connections for 10 s: ${(backlog / loaded.seconds).toFixed(0)} deliveries/s (${loaded.seconds.toFixed(1)} s)`,
  );
  console.log(
    `   get-sales p99 ${loaded.load!.p99Ms} ms during the drain (${loaded.load!.perSecond.toFixed(0)} req/s), ${feedAlone.p99Ms} ms alone (${feedAlone.perSecond.toFixed(0)} req/s)`,
  );
  console.log(`\nuptime: ${execFileSync('uptime').toString().trim()}`);
} finally {
  await server?.stop();
  await receiver.close();
  await rm(dataDir, { recursive: true, force: true });
}
