import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { cliArguments, projectRoot } from '../test/support/service-command.ts';
import { startWebhookReceiver } from '../test/webhooks/webhook-receiver.ts';
import { machine } from './bench-runtime.ts';
import { runSteadyLoadInThread } from './http-load-thread.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

/**
 * `npm run bench:webhooks`: the suppliers' webhooks, the service as `npm start` runs it, a loopback
 * HTTPS receiver in the bench's process (answering 200 at once).
 *
 * 1. Latency: BENCH_ORDERS_LIVE orders (default 300) imported one after another through the REST
 *    import, each supplier-a line timed from the import's answer to its delivery at the receiver.
 * 2. Backlog: the server stopped, BENCH_BACKLOG orders (default 10,000) imported by the CLI, the
 *    server started again. One subscription drains at once, beside the rendering of the same orders'
 *    shipping labels (the import's own work).
 * 3. A second subscription, held (its receiver answers 9 s late) until those labels are done, then
 *    released: the deliverer's own rate, while get-sales of supplier-b is asked back to back (10
 *    connections, 10 s, from a thread of the bench's own, away from its receiver), against get-sales
 *    alone afterwards.
 *
 * Targets (issue: suppliers told): p99 under 1 s; 500 deliveries/s or more; get-sales p99 within 2x.
 */
const liveOrders = Number(process.env.BENCH_ORDERS_LIVE ?? 300);
const backlog = Number(process.env.BENCH_BACKLOG ?? 10_000);
const run = promisify(execFile);
const metricsToken = randomBytes(24).toString('hex');

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
    body: JSON.stringify({ url: receiver.url('/live'), kinds: ['line.opened'] }),
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

  // From a thread of its own: the receiver's work in this one would be timed as get-sales' latency.
  const feed = (origin: string) =>
    runSteadyLoadInThread({
      origin,
      connections: 10,
      seconds: 10,
      request: { path: '/api/supplier-b/get-sales', headers: { authorization: `Bearer ${supplierB}` } },
    });

  // 2. A backlog: the server stopped, the orders imported by the CLI, the server started again. Two
  // subscriptions wait for them: /live drains at once, beside the rendering of the same orders'
  // shipping labels (the import's own work, on the same two cores); /later is held (its receiver
  // answers each delivery 9 s late) until those labels are done, then released: its drain is the
  // deliverer's own rate, measured while get-sales is asked back to back.
  const later = await fetch(`${server.origin}/api/supplier-a/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${supplierA}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url('/later'), kinds: ['line.opened'] }),
  });
  if (later.status !== 201) throw new Error(`subscription refused: ${await later.text()}`);
  let held = true;
  receiver.answerAfter((path) => (held && path === '/later' ? 9_000 : 0));
  await server.stop();
  const file = path.join(dataDir, 'backlog.json');
  await writeFile(file, JSON.stringify(Array.from({ length: backlog }, () => anOrder())));
  await cli('orders', 'import', file);
  const before = receiver.received.length;
  server = await startServerProcess(dataDir, { ...env, METRICS_TOKEN: metricsToken });
  const origin = server.origin;
  const arrivedAt = (where: string) => receiver.received.slice(before).filter((delivery) => delivery.path === where);
  /** Waits until `where` has `count` deliveries since the restart; a drain that stops moving for 30 s fails, with the server's warnings. */
  const drained = async (where: string, count: number) => {
    let progress = { count: 0, at: Date.now() };
    for (;;) {
      const arrived = arrivedAt(where).length;
      if (arrived >= count) return;
      if (arrived > progress.count) progress = { count: arrived, at: Date.now() };
      else if (Date.now() - progress.at > 30_000) {
        throw new Error(`${where} stopped at ${arrived} of ${count} deliveries; the server logged:\n${server!.log.summary().join('\n')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const rate = (deliveries: { at: number }[]) => ({
    perSecond: deliveries.length / ((deliveries.at(-1)!.at - deliveries[0]!.at) / 1000),
    seconds: (deliveries.at(-1)!.at - deliveries[0]!.at) / 1000,
  });
  await drained('/live', backlog);
  const live = rate(arrivedAt('/live'));
  console.log(
    `2. backlog of ${backlog.toLocaleString('en')} orders imported while the server was down, to one receiver, beside the rendering of their shipping labels: ${live.perSecond.toFixed(0)} deliveries/s (${live.seconds.toFixed(1)} s)`,
  );
  // The labels done: none being rendered for three readings in a row.
  for (let quiet = 0; quiet < 3;) {
    const metrics = await (await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
    quiet = /^label_backlog_labels 0$/m.test(metrics) ? quiet + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  const releasedAt = Date.now();
  held = false;
  const load = feed(origin);
  // Awaited below: until then a failure of the load must not end the process before `finally` stops the server.
  load.catch(() => undefined);
  await drained('/later', backlog);
  const loaded = await load;
  // The delivery held at the release arrived before it; the drain runs from the next one.
  const after = arrivedAt('/later').filter((delivery) => delivery.at > releasedAt);
  const own = rate(after);
  const alone = await feed(origin);
  console.log(
    `3. the same backlog to a second receiver held until those labels were done, then released (${after.length.toLocaleString('en')} messages), while get-sales (supplier-b) is asked back to back on 10 connections for 10 s: ${own.perSecond.toFixed(0)} deliveries/s (${own.seconds.toFixed(1)} s)`,
  );
  console.log(
    `   get-sales p99 ${loaded.p99Ms} ms during the drain (${loaded.perSecond.toFixed(0)} req/s), ${alone.p99Ms} ms alone afterwards (${alone.perSecond.toFixed(0)} req/s)`,
  );
  console.log(`\nuptime: ${execFileSync('uptime').toString().trim()}`);
} finally {
  await server?.stop();
  await receiver.close();
  await rm(dataDir, { recursive: true, force: true });
}
