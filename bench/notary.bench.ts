import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { demoCatalog, demoOrders } from '../src/cli/demo/demo-data.ts';
import { issueAccessToken } from '../src/events/access/access-token-handlers.ts';
import { systemContext } from '../src/events/command-context.ts';
import { saleStreamName } from '../src/events/sales/events.ts';
import { openSqliteEventStore } from '../src/events/store/sqlite-event-store.ts';
import { cliArguments, projectRoot } from '../test/support/service-command.ts';
import { machine, openBenchRuntime, percentile, rate, uptime } from './bench-runtime.ts';
import { scratchCopyOfSeeded } from './bench-session.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

/**
 * `npm run bench:notary`: the log's notary on a copy of the seeded demo dataset (BENCH_ORDERS orders,
 * default 100,000).
 *
 * 1. Catch-up: the log followed into an empty tree, as a new instance or a deleted tree does: events/s.
 * 2. Live: the service as `npm start` runs it, with its default head rhythm; BENCH_LIVE orders (default
 *    20) imported one at a time at random moments, each timed from its last event's recording to the
 *    first answer of the inclusion route that proves it in the latest signed head.
 * 3. The size of an inclusion and a consistency proof in the tree of the latest head, against log2 n.
 * 4. `events audit verify` on the whole log, the server stopped: wall time of the CLI's process.
 *
 * Targets (issue: auditors can prove the log whole): catch-up 50,000 events/s or more; a head within
 * 5 s of an event; the verification under 30 s; proofs of O(log n) hashes.
 */
const orders = Number(process.env.BENCH_ORDERS ?? 100_000);
const liveOrders = Number(process.env.BENCH_LIVE ?? 20);
const run = promisify(execFile);

console.log(`bench:notary on ${machine()}`);
console.log(`uptime: ${uptime()}`);
console.log(`dataset: ${orders.toLocaleString('en')} demo orders`);

const { dataDir, remove } = await scratchCopyOfSeeded(orders, 'bench-notary-');
let server: ServerProcess | undefined;
try {
  // 1. Catch-up into an empty tree, in this process, as a server's follower runs it.
  await Promise.all(['', '-wal', '-shm'].map((suffix) => rm(path.join(dataDir, `log-tree.sqlite${suffix}`), { force: true })));
  const runtime = await openBenchRuntime(dataDir, false);
  const token = async (group: 'core' | 'auditor') => (await issueAccessToken(runtime.write, { group, label: `bench-${group}` }, systemContext())).token;
  const [core, auditor] = [await token('core'), await token('auditor')];
  const { follower, tree } = runtime.logAudit!;
  const head = await runtime.personalData.recorded.headPosition();
  // The second half's rate as well: on a small log, compiling the code of the first batches weighs on the whole.
  const halfway = { size: 0, at: 0 };
  const stopWatching = follower.onGrowth(() => {
    if (halfway.size === 0 && tree.lastPosition() >= head / 2) Object.assign(halfway, { size: tree.size(), at: performance.now() });
  });
  const startedAt = performance.now();
  follower.start();
  await follower.caughtUpTo(head);
  const catchUpMs = performance.now() - startedAt;
  const events = tree.size();
  stopWatching();
  await runtime.close();
  console.log(
    `\n1. catch-up from an empty tree: ${events.toLocaleString('en')} events in ${(catchUpMs / 1000).toFixed(2)} s: ${rate(events, catchUpMs)}, the second half ${rate(events - halfway.size, startedAt + catchUpMs - halfway.at)} (target 50,000/s)`,
  );

  // 2. Live: orders at random moments (not in step with the notary's clock); one watcher asks for the
  // latest head every 10 ms and, at each new one, which of the orders waiting it proves.
  server = await startServerProcess(dataDir, { LOG_LEVEL: 'warn' });
  const origin = server.origin;
  const log = openSqliteEventStore({ file: path.join(dataDir, 'events.sqlite') });
  const asAuditor = (route: string) => fetch(`${origin}${route}`, { headers: { authorization: `Bearer ${auditor}` } });
  const waiting = new Map<number, number>();
  const latencies: number[] = [];
  let importing = true;
  const watcher = (async () => {
    let seenSize = 0;
    while (importing || waiting.size > 0) {
      const answer = await asAuditor('/api/audit/log/head');
      const head = answer.status === 200 ? ((await answer.json()) as { treeSize: number }) : (await answer.arrayBuffer(), undefined);
      if (head && head.treeSize !== seenSize) {
        seenSize = head.treeSize;
        const seenAt = Date.now();
        for (const [position, recordedAt] of waiting) {
          const proof = await asAuditor(`/api/audit/log/inclusion?position=${position}&treeSize=${head.treeSize}`);
          await proof.arrayBuffer();
          if (proof.status !== 200) continue;
          latencies.push(seenAt - recordedAt);
          waiting.delete(position);
        }
      }
      if ([...waiting.values()].some((recordedAt) => Date.now() - recordedAt > 60_000)) throw new Error('no signed head proved an order within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const fresh = demoOrders({
    seed: 7,
    count: liveOrders,
    catalog: demoCatalog(42),
    from: new Date('2026-10-25T00:00:00Z'),
    to: new Date('2026-11-01T00:00:00Z'),
  });
  let incrementId = 800_000_001;
  for (const order of fresh) {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 1000));
    const payload = { ...order, increment_id: String(incrementId++) };
    const answer = await fetch(`${origin}/api/api-add-new-order-api-shopping`, {
      method: 'POST',
      headers: { authorization: `Bearer ${core}`, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    if (answer.status !== 201) throw new Error(`import refused (${answer.status}): ${await answer.text()}`);
    const last = (await log.readStream(saleStreamName(payload.increment_id))).at(-1)!;
    waiting.set(last.position, Date.parse(last.recordedAt));
  }
  importing = false;
  await watcher;
  console.log(
    `2. live, ${liveOrders} orders at random moments, from an order's last event recorded to a signed head proving it served: p50 ${percentile(latencies, 50)} ms, max ${Math.max(...latencies)} ms (target 5 s)`,
  );

  // 3. The proofs' sizes in the tree of the latest head.
  const latest = (await (await asAuditor('/api/audit/log/head')).json()) as { treeSize: number };
  const [first] = await log.readAll({ maxCount: 1 });
  const inclusion = (await (await asAuditor(`/api/audit/log/inclusion?position=${first!.position}`)).json()) as { proof: string[] };
  const from = Math.max(1, Math.floor(latest.treeSize / 3));
  const consistency = (await (await asAuditor(`/api/audit/log/consistency?from=${from}`)).json()) as { proof: string[] };
  await log.close();
  console.log(
    `3. proofs in the tree of ${latest.treeSize.toLocaleString('en')} events (log2 n = ${Math.log2(latest.treeSize).toFixed(1)}: at most ${Math.ceil(Math.log2(latest.treeSize))} hashes for an inclusion, one more for a consistency): inclusion of the first event ${inclusion.proof.length} hashes, consistency from ${from.toLocaleString('en')} ${consistency.proof.length} hashes`,
  );
  await server.stop();
  server = undefined;

  // 4. The auditor's verification of the whole log, as a CLI process.
  const verifiedAt = performance.now();
  const verified = await run(process.execPath, cliArguments('events', 'audit', 'verify'), {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const verifyMs = performance.now() - verifiedAt;
  console.log(`4. events audit verify: ${(verifyMs / 1000).toFixed(2)} s, exit 0 (target 30 s): ${verified.stdout.trim()}`);
  console.log(`\nuptime: ${uptime()}`);
} finally {
  await server?.stop();
  remove();
}
