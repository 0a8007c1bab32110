import { execFile } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { headSignedBy } from '../../src/events/audit/export-format.ts';
import { verifyConsistency, verifyInclusion } from '../../src/events/audit/merkle.ts';
import { issueAccessToken, revokeAccessToken } from '../../src/events/access/access-token-handlers.ts';
import type { TokenGroup } from '../../src/events/access/events.ts';
import type { SupplierName } from '../../src/events/schema/common-schemas.ts';
import { systemContext } from '../../src/events/command-context.ts';
import { planningDayStreamName } from '../../src/events/planning/events.ts';
import { isFrenchPublicHoliday } from '../../src/events/planning/french-holidays.ts';
import { labelFileFor } from '../../src/files/label-path.ts';
import { createLogger } from '../../src/logger.ts';
import { allProjections } from '../../src/projections/all-projections.ts';
import { openRuntime, type Runtime } from '../../src/runtime.ts';
import { anOrder, importPath } from '../rest/core/orders/orders-api.ts';
import { nothingDeliverableBody, shippedBody } from '../rest/supplier/supplier-fixtures.ts';
import { testBackendEnv, type BackendEnv } from '../support/backends.ts';
import { sample } from '../support/prometheus-sample.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../support/smtp-test-server.ts';
import { bearer, json, readLeases, spreadingClient, startInstance, type Instance } from './cluster.ts';
import { cliArguments } from '../support/service-command.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../webhooks/webhook-receiver.ts';

/**
 * Three instances of the service behind one (client-side) load balancer, on one EventStoreDB test
 * server and one FerretDB database, sharing DATA_DIR: what a retailer that outgrows one machine runs.
 * Always on the production adapters, whatever TEST_BACKENDS says: the embedded stores are one
 * process's (or one machine's) alone.
 */

const leaseTtlMs = 3000;
const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

type InclusionProof = { leafIndex: number; leafHash: string; proof: string[] };
type ConsistencyProof = { proof: string[] };

type ImportAnswer = { increment_id: string; sale_product_ids: number[]; supplier_lines: { service_order_id: string; supplier: SupplierName }[] };

/** Runs `work` over `items`, `concurrency` at a time. */
const inParallel = async <T, R>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> => {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
};

/** A working day at least ten days ahead, on which the SAV planning has its default slots. */
const aWorkingDayAhead = (): string => {
  const day = new Date(Date.now() + 10 * 86_400_000);
  for (;;) {
    const date = day.toISOString().slice(0, 10);
    if (day.getUTCDay() >= 1 && day.getUTCDay() <= 5 && !isFrenchPublicHoliday(date)) return date;
    day.setUTCDate(day.getUTCDate() + 1);
  }
};

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('three instances behind one load balancer, on one EventStoreDB and one MongoDB', () => {
  let backends: BackendEnv;
  let backendsDir: string;
  let dataDir: string;
  let env: Record<string, string>;
  let smtp: SmtpTestServer;
  let receiver: WebhookReceiver;
  let admin: Runtime;
  const instances: Instance[] = [];
  const live = () => instances.filter((instance) => instance.alive());
  const client = spreadingClient(live);
  const tokens = {} as Record<TokenGroup, string>;
  const imported: ImportAnswer[] = [];
  const treeFileOf = (id: string) => path.join(backendsDir, 'trees', id, 'log-tree.sqlite');
  /** The instance holding every lease at first, notary's included, killed in the spec of the failover. */
  let firstSigner: string | undefined;

  beforeAll(async () => {
    backendsDir = await mkdtemp(path.join(tmpdir(), 'instances-servers-'));
    dataDir = await mkdtemp(path.join(tmpdir(), 'instances-data-'));
    backends = await testBackendEnv(backendsDir, 'production');
    smtp = await startSmtpTestServer();
    receiver = await startWebhookReceiver();
    env = {
      ...backends.env,
      DATA_DIR: dataDir,
      TOKEN_SECRET: 'a-secret-shared-by-every-instance-0123456789',
      BASE_URL: 'https://orders.example.test',
      PROJECTION_LEASE_TTL_MS: String(leaseTtlMs),
      LEAD_NOTIFY_EVERY_SECONDS: '1',
      SMTP_URL: smtp.url,
      // The SMTP server here counts the lead mails of the takeover spec; the customer mails have their own spec.
      CUSTOMER_MAIL_KINDS: 'none',
      PDF_WORKERS: '1',
      // The suppliers' webhook endpoint of the specs: a loopback HTTPS server with its own certificate.
      WEBHOOK_TEST_RECEIVERS: receiver.host,
      WEBHOOK_TEST_CA_FILE: receiver.certFile,
      // One signing key for all, as production requires; a head every second while events arrive.
      LOG_SIGNING_KEY: 'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=',
      LOG_HEAD_EVERY_SECONDS: '1',
    };
    // The operator's CLI, on the same stores: it issues the tokens.
    admin = await openRuntime(loadConfig({ ...env, LOG_LEVEL: 'silent' }), createLogger('silent'), { readYourWrites: false });
    for (const group of ['core', 'supplier-a', 'supplier-b'] as const) {
      tokens[group] = (await issueAccessToken(admin.write, { group }, systemContext())).token;
    }
    // The first one takes every lease (projections and jobs); the other two join it. Each follows the
    // log into a tree of its own, on its own disk, as DATA_DIR is shared.
    instances.push(await startInstance('instance-1', { ...env, LOG_TREE_FILE: treeFileOf('instance-1') }));
    instances.push(...(await Promise.all(['instance-2', 'instance-3'].map((id) => startInstance(id, { ...env, LOG_TREE_FILE: treeFileOf(id) })))));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.kill('SIGTERM')));
    await admin?.close();
    await smtp?.close();
    await receiver?.close();
    await backends?.cleanup();
    await rm(dataDir, { recursive: true, force: true });
    await rm(backendsDir, { recursive: true, force: true });
  });

  const importOrders = (count: number) =>
    inParallel(Array.from({ length: count }), 4, async () => {
      const answer = await client.send(importPath, json(tokens.core, anOrder()));
      expect(answer.status).toBe(201);
      const order = answer.body as ImportAnswer;
      imported.push(order);
      return order;
    });

  const feedOf = async (instance: Instance, supplier: SupplierName) => {
    const answer = await client.send(`/api/${supplier}/get-sales`, bearer(tokens[supplier]), instance);
    expect(answer.status).toBe(200);
    return { ids: (answer.body as { service_order_id: string }[]).map((line) => line.service_order_id).sort(), cache: answer.headers.get('x-cache') };
  };

  it(
    'when 30 supplier lines are acknowledged and shipped through random instances, every feed of every instance is right after each answer, cache included; each label is rendered once',
    { timeout: 240_000 },
    async () => {
      const orders = await importOrders(15);
      const lines = orders.flatMap((order) => order.supplier_lines);
      expect(lines).toHaveLength(30);
      const cacheAnswers: string[] = [];
      const wrong: string[] = [];
      /** After each answer, the whole feed of the line's supplier, as every instance serves it (supplier-a's from its cache when nothing changed). */
      const expectListed = async (supplier: SupplierName, line: string, listed: boolean, after: string) => {
        for (const instance of instances) {
          const feed = await feedOf(instance, supplier);
          cacheAnswers.push(`${supplier}:${feed.cache}`);
          if (feed.ids.includes(line) !== listed)
            wrong.push(`${line} ${listed ? 'missing from' : 'still listed by'} ${instance.id} (${feed.cache}) after ${after}`);
        }
      };
      // Eight clients at once, each command through a random instance, each answer checked on every instance.
      await inParallel(lines, 8, async ({ supplier, service_order_id: line }) => {
        const acknowledged = await client.send(`/api/${supplier}/acknowledge-sale`, json(tokens[supplier], { service_order_id: line }));
        expect(acknowledged.body).toMatchObject({ success: true });
        await expectListed(supplier, line, true, `its acknowledgement through ${acknowledged.instance.id}`);
        const shipped = await client.send(`/api/${supplier}/ship-sale`, json(tokens[supplier], { service_order_id: line }));
        expect(shipped.body).toEqual(shippedBody);
        await expectListed(supplier, line, false, `its shipping through ${shipped.instance.id}`);
      });
      expect(wrong).toEqual([]);
      // Once nothing changes, a second read of supplier-a's feed comes from each instance's cache; supplier-b's never does.
      for (const instance of instances) {
        expect(await feedOf(instance, 'supplier-a')).toEqual({ ids: [], cache: expect.any(String) });
        expect(await feedOf(instance, 'supplier-a')).toEqual({ ids: [], cache: 'HIT' });
      }
      expect(new Set(cacheAnswers.filter((answer) => answer.startsWith('supplier-b:')))).toEqual(new Set(['supplier-b:MISS']));

      // Every label on the shared disk, each order's rendered by one instance only, whichever imported it.
      const files = lines.map((line) => labelFileFor(dataDir, line.supplier, line.service_order_id));
      const deadline = Date.now() + 60_000;
      while (!(await Promise.all(files.map(exists))).every(Boolean) && Date.now() < deadline) await sleep(200);
      expect((await Promise.all(files.map(exists))).every(Boolean)).toBe(true);
      const renders = instances.flatMap((instance) =>
        instance.lines.filter((line) => line.msg === 'shipping labels of an imported order rendered').map((line) => line.incrementId as string),
      );
      for (const order of orders) expect(renders.filter((incrementId) => incrementId === order.increment_id)).toHaveLength(1);
    },
  );

  it('when 30 ships of one line race through the three instances, exactly one succeeds', { timeout: 120_000 }, async () => {
    const [order] = await importOrders(1);
    const line = order!.supplier_lines.find((candidate) => candidate.supplier === 'supplier-a')!.service_order_id;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => client.send('/api/supplier-a/ship-sale', json(tokens['supplier-a'], { service_order_id: line }), instances[i % 3])),
    );
    expect(answers.filter((answer) => JSON.stringify(answer.body) === JSON.stringify(shippedBody))).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 200 && JSON.stringify(answer.body) === JSON.stringify(nothingDeliverableBody))).toHaveLength(29);
    for (const instance of instances) expect((await feedOf(instance, 'supplier-a')).ids).not.toContain(line);
  });

  it('when 20 SAVs race for one slot of capacity 2 through the three instances, exactly 2 are booked', { timeout: 120_000 }, async () => {
    const [order] = await importOrders(1);
    const date = aWorkingDayAhead();
    const body = {
      saleProductId: order!.sale_product_ids[0],
      data: {
        complaint: 'Le pied avant gauche du canapé est fendu.',
        complaint_name: 'Produit endommagé',
        sav_type: 'repair',
        rdv_date: date,
        rdv_time: '09:00',
      },
    };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.send('/api/sale-sav/create-for-sale-product', json(tokens.core, body), instances[i % 3])),
    );
    expect(answers.filter((answer) => answer.status === 201 && (answer.body as { appointment: unknown }).appointment !== null)).toHaveLength(2);
    expect(answers.filter((answer) => answer.status === 409 && (answer.body as { error: string }).error === 'slot_full')).toHaveLength(18);
    const day = await admin.eventStore.readStream(planningDayStreamName('sav', date));
    expect(day.filter((event) => event.type === 'PlanningSlotBooked')).toHaveLength(2);
  });

  it('when a token is issued it works at once on every instance; when it is revoked, every instance refuses it within 2.5 s', { timeout: 60_000 }, async () => {
    const { token, tokenId } = await issueAccessToken(admin.write, { group: 'supplier-a', label: 'revoked-later' }, systemContext());
    for (const instance of instances) expect((await client.send('/api/supplier-a/get-sales', bearer(token), instance)).status).toBe(200);

    await revokeAccessToken(admin.write, tokenId, systemContext());
    const revokedAt = Date.now();
    const delays = await Promise.all(
      instances.map(async (instance) => {
        while ((await client.send('/api/supplier-a/get-sales', bearer(token), instance)).status !== 401) {
          if (Date.now() - revokedAt > 10_000) throw new Error(`${instance.id} still accepts the revoked token`);
          await sleep(20);
        }
        return Date.now() - revokedAt;
      }),
    );
    expect(Math.max(...delays)).toBeLessThanOrEqual(2500);
  });

  it(
    'when an order is imported through one instance, the dashboard each instance answers next counts it; asked again unchanged, it comes from memory',
    { timeout: 60_000 },
    async () => {
      const analyst = (await issueAccessToken(admin.write, { group: 'analyst', label: 'dashboards' }, systemContext())).token;
      // Every order of this suite is placed on 2 October.
      const dashboard = { query: '{ dashboard(from: "2026-10-02", to: "2026-10-02") { totals { orders } } }' };
      const ordersOn = async (instance: Instance): Promise<number> => {
        const answer = await client.send('/graphql', json(analyst, dashboard), instance);
        expect(answer.status).toBe(200);
        return (answer.body as { data: { dashboard: { totals: { orders: number } } } }).data.dashboard.totals.orders;
      };
      const keptHits = async (instance: Instance): Promise<number> => {
        const answer = await client.send('/metrics', bearer(analyst), instance);
        return sample(String(answer.body), 'graphql_kept_answers_total{outcome="hit"}') ?? 0;
      };
      const [before] = await Promise.all(instances.map(ordersOn));
      for (const [index, through] of instances.entries()) {
        expect((await client.send(importPath, json(tokens.core, anOrder()), through)).status).toBe(201);
        for (const instance of instances) expect(await ordersOn(instance)).toBe(before! + index + 1);
      }
      for (const instance of instances) {
        const hits = await keptHits(instance);
        expect(await ordersOn(instance)).toBe(before! + instances.length);
        expect(await keptHits(instance)).toBe(hits + 1);
      }
    },
  );

  it(
    'when the instance running the projections and jobs is killed with SIGKILL under load, its leases are taken within the lease time + 1 s, the others stay ready, its requests succeed when retried, 50 leads get exactly 50 mails, its labels are rendered and the read models verify',
    { timeout: 240_000 },
    async () => {
      const projectionNames = allProjections({ timezone: 'Europe/Paris' }).map((projection) => projection.name);
      const leaseNames = [...projectionNames, 'job:label-backlog', 'job:lead-notifications', 'job:log-notary'];
      const leadIds: string[] = [];
      const postLeads = (count: number, from: number) =>
        inParallel(Array.from({ length: count }), 5, async (_, i) => {
          const answer = await client.send(
            '/api/contact-lead',
            json(tokens.core, { name: `Contact ${from + i}`, email: `contact${from + i}@example.fr`, phone: null, project_name: null }),
          );
          expect(answer.status).toBe(201);
          leadIds.push((answer.body as { lead_id: string }).lead_id);
        });

      // The first 25 leads; once some are mailed, the SMTP server holds its answers: the job's holder
      // waits in the middle of sending one (every lead before it is recorded as sent).
      await postLeads(25, 0);
      await smtp.waitForMessages(5, 30_000);
      smtp.hold();
      await smtp.waitForHeld(1, 30_000);

      const before = await readLeases(backends.env.MONGODB_URL!);
      const victim = instances.find((instance) => instance.id === before.get('job:lead-notifications')?.owner)!;
      expect(victim).toBeDefined();
      const victimLeases = leaseNames.filter((name) => before.get(name)?.owner === victim.id);
      expect(victimLeases).toContain('job:label-backlog');
      expect(victimLeases).toContain('job:log-notary');
      firstSigner = victim.id;
      expect(victimLeases.filter((name) => projectionNames.includes(name)).length).toBeGreaterThan(0);
      const survivors = instances.filter((instance) => instance !== victim);

      // Load: imports (sent again on failure: an import is idempotent) and feed reads through every
      // instance, three clients on the victim so that some of its requests are in flight when it dies.
      let loading = true;
      const loadAnswers: number[] = [];
      const load = Promise.all(
        Array.from({ length: 6 }, async (_, worker) => {
          const pinned = worker < 3 ? victim : undefined;
          while (loading) {
            const order = anOrder();
            const first = pinned && pinned.alive() && !client.down.has(pinned.id) ? pinned : client.pick();
            let answer;
            try {
              answer = await client.send(importPath, json(tokens.core, order), first);
            } catch {
              // Its instance died with it in flight: the load balancer sends it again elsewhere.
              client.down.add(first.id);
              answer = await client.send(importPath, json(tokens.core, order));
              client.retried.push({ path: importPath, status: answer.status });
            }
            loadAnswers.push(answer.status);
            if (answer.status === 200 || answer.status === 201) imported.push(answer.body as ImportAnswer);
            const feed = await client.send('/api/supplier-b/get-sales', bearer(tokens['supplier-b']));
            loadAnswers.push(feed.status);
          }
        }),
      );
      await sleep(1500);

      const killedAt = Date.now();
      await victim.kill('SIGKILL');
      // The message held was never answered: its connection is gone, so it was never accepted.
      while (smtp.heldOfClosedSessions() < 1) await sleep(10);
      smtp.release();

      // The survivors stay ready throughout, and take every lease of the victim.
      const readiness: number[] = [];
      let takenAt: number | undefined;
      while (takenAt === undefined || Date.now() < takenAt + 1000) {
        for (const instance of survivors) readiness.push((await fetch(`${instance.url}/health/ready`)).status);
        if (takenAt === undefined) {
          const now = await readLeases(backends.env.MONGODB_URL!);
          if (victimLeases.every((name) => survivors.some((instance) => instance.id === now.get(name)?.owner))) takenAt = Date.now();
          else if (Date.now() - killedAt > 30_000) throw new Error('the leases of the killed instance were not taken over');
        }
        await sleep(50);
      }
      expect(takenAt - killedAt).toBeLessThanOrEqual(leaseTtlMs + 1000);
      expect(readiness.every((status) => status === 200)).toBe(true);

      // The other 25 leads, through the survivors; then every lead mailed exactly once.
      await postLeads(25, 25);
      loading = false;
      await load;
      await smtp.waitForMessages(50, 60_000);
      await sleep(2500); // two more runs of the job: nothing more is sent
      const mailed = smtp.received.map((mail) => mail.header('x-lead-id'));
      expect(mailed).toHaveLength(50);
      expect(new Set(mailed)).toEqual(new Set(leadIds));

      // The requests the victim had in flight failed, and succeeded when sent again.
      expect(client.retried.length).toBeGreaterThan(0);
      expect(client.retried.every((retry) => retry.status === 200 || retry.status === 201)).toBe(true);
      expect(loadAnswers.every((status) => status === 200 || status === 201)).toBe(true);
      // The commands in flight while the leases changed hands waited for the new holders, not in vain until their time-out.
      const gaveUp = survivors.flatMap((instance) =>
        instance.lines.filter((line) => line.msg === 'Read models not up to date after a write; answering anyway'),
      );
      expect(gaveUp).toEqual([]);

      // The labels the victim owed are rendered by the instance that took its backlog over.
      const files = imported.flatMap((order) => order.supplier_lines.map((line) => labelFileFor(dataDir, line.supplier, line.service_order_id)));
      const deadline = Date.now() + 60_000;
      while (!(await Promise.all(files.map(exists))).every(Boolean) && Date.now() < deadline) await sleep(200);
      expect((await Promise.all(files.map(exists))).every(Boolean)).toBe(true);

      // The read models the survivors built on from the victim's checkpoints equal a replay of the log.
      const verify = await run(process.execPath, cliArguments('projections', 'verify'), {
        cwd: root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, LOG_LEVEL: 'silent' },
      });
      expect(verify.stdout).toContain('Read models match a rebuild from the log');
    },
  );

  it(
    "when the notary's instance was killed, heads came from one signer at a time, sizes growing; the next holder signed the next head, consistent with the earlier ones, and every instance proves the same",
    { timeout: 60_000 },
    async () => {
      const auditor = (await issueAccessToken(admin.write, { group: 'auditor', label: 'log-audit' }, systemContext())).token;
      type Head = { treeSize: number; rootHash: string; signedAt: string; keyId: string; signature: string; publicKey: string; instanceId: string };
      const headsInLog = async () =>
        (await admin.personalData.recorded.readAll({ filter: { eventTypes: ['TreeHeadSigned'] } })).map((event) => ({
          ...(event.data as Head),
          position: event.position,
        }));
      // The holder after the kill signs once events arrive: the orders imported under load did.
      const deadline = Date.now() + 20_000;
      while (!(await headsInLog()).some((head) => head.instanceId !== firstSigner)) {
        if (Date.now() > deadline) throw new Error('no head was signed after the notary was killed');
        await sleep(100);
      }
      const heads = await headsInLog();

      // One signer at a time: each instance's heads form one run, the killed one's first; sizes only grow.
      const runs = heads.map((head) => head.instanceId).filter((signer, i, all) => i === 0 || signer !== all[i - 1]);
      expect(new Set(runs).size).toBe(runs.length);
      expect(runs[0]).toBe(firstSigner);
      expect(runs.slice(1).every((signer) => live().some((instance) => instance.id === signer))).toBe(true);
      const sizes = heads.map((head) => head.treeSize);
      expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
      expect(new Set(sizes).size).toBe(sizes.length);

      // The last head before the kill and the first after, as every live instance proves them.
      const before = heads.findLast((head) => head.instanceId === firstSigner)!;
      const after = heads.find((head) => head.instanceId !== firstSigner)!;
      const key = createPublicKey(((await client.send('/.well-known/log-public-key')).body as { pem: string }).pem);
      const asAuditor = async (route: string, instance: Instance) => {
        for (const until = Date.now() + 10_000; ; await sleep(50)) {
          const answer = await client.send(route, bearer(auditor), instance);
          // An instance whose tree has not read the newest head yet answers 404 for a moment.
          if (answer.status === 200 || Date.now() > until) return answer;
        }
      };
      const answers = await Promise.all(
        live().map(async (instance) => ({
          head: (await asAuditor(`/api/audit/log/heads/${after.treeSize}`, instance)).body as Head,
          consistency: (await asAuditor(`/api/audit/log/consistency?from=${before.treeSize}&to=${after.treeSize}`, instance)).body as ConsistencyProof,
          inclusion: (await asAuditor(`/api/audit/log/inclusion?position=${before.position}&treeSize=${after.treeSize}`, instance)).body as InclusionProof,
        })),
      );
      for (const answer of answers) expect(answer).toEqual(answers[0]);
      const [{ head, consistency, inclusion }] = answers as [(typeof answers)[number]];
      expect(head).toMatchObject({ treeSize: after.treeSize, rootHash: after.rootHash, signature: after.signature });
      // Checked as an auditor checks them: the signatures, the proofs, with the service's own verifiers.
      for (const signed of [before, after]) expect(headSignedBy(signed, key)).toEqual({ ok: true });
      const b = (hash: string) => Buffer.from(hash, 'base64');
      expect(verifyConsistency(before.treeSize, after.treeSize, consistency.proof.map(b), b(before.rootHash), b(after.rootHash))).toBe(true);
      expect(verifyInclusion(b(inclusion.leafHash), inclusion.leafIndex, after.treeSize, inclusion.proof.map(b), b(after.rootHash))).toBe(true);
      expect(inclusion.leafIndex).toBeGreaterThanOrEqual(before.treeSize);

      // And the whole log against every head in it, as `events audit verify` runs beside an instance.
      const verified = await run(process.execPath, cliArguments('events', 'audit', 'verify'), {
        cwd: root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, LOG_TREE_FILE: treeFileOf(live()[0]!.id), LOG_LEVEL: 'silent' },
      });
      expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, headsChecked: expect.any(Number) });
      expect((JSON.parse(verified.stdout) as { headsChecked: number }).headsChecked).toBeGreaterThanOrEqual(heads.length);
    },
  );

  it(
    "when suppliers subscribe to webhooks, each message reaches each subscription once; when the deliverer's instance is killed, another takes its lease within the lease time and every message arrives, a repeat with the same webhook-id",
    { timeout: 180_000 },
    async () => {
      const subscribe = async (supplier: SupplierName) => {
        const answer = await client.send(`/api/${supplier}/webhooks`, json(tokens[supplier], { url: receiver.url(`/${supplier}`), kinds: ['line.opened'] }));
        expect(answer.status).toBe(201);
      };
      await subscribe('supplier-a');
      await subscribe('supplier-b');
      const linesOf = (orders: ImportAnswer[]) => orders.flatMap((order) => order.supplier_lines.map((line) => `/${line.supplier} ${line.service_order_id}`));
      const arrived = () =>
        receiver.received.map((delivery) => `${delivery.path} ${(JSON.parse(delivery.body) as { data: { service_order_id: string } }).data.service_order_id}`);

      // Normal operation: 10 orders through random instances, every line told once, to its supplier's endpoint.
      const first = linesOf(await importOrders(10));
      const deadline = Date.now() + 60_000;
      while (!first.every((line) => arrived().includes(line)) && Date.now() < deadline) await sleep(100);
      await sleep(1000);
      expect(arrived().sort()).toEqual([...first].sort());

      // The deliverer's instance killed while answers take 100 ms: another takes the lease within its time.
      const owner = (await readLeases(backends.env.MONGODB_URL!)).get('job:webhook-deliveries')?.owner;
      const victim = live().find((instance) => instance.id === owner)!;
      expect(victim).toBeDefined();
      receiver.answerAfter(100);
      const second = linesOf(await importOrders(10));
      while (receiver.received.length < first.length + 3) await sleep(20);
      const killedAt = Date.now();
      await victim.kill('SIGKILL');
      let takenAt: number | undefined;
      while (takenAt === undefined) {
        const now = (await readLeases(backends.env.MONGODB_URL!)).get('job:webhook-deliveries')?.owner;
        if (now !== undefined && now !== victim.id && live().some((instance) => instance.id === now)) takenAt = Date.now();
        else if (Date.now() - killedAt > 30_000) throw new Error('the webhook deliverer was not taken over');
        else await sleep(50);
      }
      expect(takenAt - killedAt).toBeLessThanOrEqual(leaseTtlMs + 1000);
      const all = [...first, ...second];
      const until = Date.now() + 60_000;
      while (!all.every((line) => arrived().includes(line)) && Date.now() < until) await sleep(100);
      expect(new Set(arrived())).toEqual(new Set(all));
      // A message sent twice (in flight at the kill) carries its webhook-id both times.
      const idsByLine = new Map<string, Set<string>>();
      for (const [index, line] of arrived().entries()) {
        const ids = idsByLine.get(line) ?? new Set<string>();
        ids.add(receiver.received[index]!.headers['webhook-id']!);
        idsByLine.set(line, ids);
      }
      expect([...idsByLine.values()].every((ids) => ids.size === 1)).toBe(true);
      expect(receiver.received.length - all.length).toBeLessThanOrEqual(2);
    },
  );
});
