import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { systemContext } from '../../src/events/command-context.ts';
import { captureLead } from '../../src/events/leads/lead-handlers.ts';
import { declareHoliday } from '../../src/events/planning/planning-handlers.ts';
import { cancelSale } from '../../src/events/sales/cancel-sale.ts';
import { importSale, type OrderImportPayload } from '../../src/events/sales/import-sale.ts';
import { acknowledgeSupplierLine, shipSupplierLine } from '../../src/events/sales/supplier-lines.ts';
import { createLogger } from '../../src/logger.ts';
import { allProjections } from '../../src/projections/all-projections.ts';
import { checkpointsCollection } from '../../src/projections/checkpoints.ts';
import { findSaleByIncrementId } from '../../src/projections/sales/queries.ts';
import { openSqliteReadStore } from '../../src/projections/read-store/sqlite-read-store.ts';
import { verifyReadModels } from '../../src/projections/verify.ts';
import { createRuntimeApp } from '../../src/server/app.ts';
import { openRuntime, type Runtime } from '../../src/runtime.ts';
import { startFerretDb, type FerretDb } from '../support/ferretdb-server.ts';
import { sharedMongoUrl, withDatabase } from '../support/mongo-backend.ts';

/**
 * The service on the embedded event store with its read models in MongoDB (FerretDB, or the server of
 * TEST_MONGODB_URL for the lease specs), through the real command handlers: the read store going away
 * and coming back, and several instances sharing one database.
 */

const timezone = 'Europe/Paris';
const everyType = [...new Set(allProjections({ timezone }).flatMap((projection) => projection.eventTypes))];
/** Short, for the takeover to be quick; not shorter: 11 leases renewed every third of it load FerretDB. */
const leaseTtlMs = 3000;
/** FerretDB on its SQLite backend is slow (milliseconds per write): a few hundred events take seconds. */
const slow = { timeout: 240_000 };

let incrementId = 500_000_000;
/** An order of a paid sofa drop-shipped by supplier-a and a table from own stock. */
const anOrder = (): OrderImportPayload => ({
  source: 'shopping-api',
  increment_id: String(++incrementId),
  created_at: '2026-10-02T09:14:00+02:00',
  currency: 'EUR',
  customer: { email: `client${incrementId}@example.org`, firstname: 'Claire', lastname: 'Martin' },
  shipping_address: { firstname: 'Claire', lastname: 'Martin', street: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon', country_id: 'FR' },
  items: [
    { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', qty_ordered: 1, price: 649, supplier: 'supplier-a', carrier: 'Geodis' },
    { sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499, supplier: null, carrier: 'Colissimo' },
  ],
  payment: { method: 'card', status: 'paid', amount_paid: 1148 },
  shipping_amount: 0,
  grand_total: 1148,
});

/** A day of work: orders imported, lines acknowledged and shipped, a partial cancellation refunded, a holiday, a lead. */
const work = async (runtime: Runtime, day: number): Promise<void> => {
  const context = systemContext();
  for (let n = 0; n < 3; n += 1) {
    const order = anOrder();
    const { saleProductIds } = await importSale(runtime.salesDeps, order, context);
    const [sofa, table] = saleProductIds;
    const line = { serviceOrderId: `${order.increment_id}_${sofa}`, supplier: 'supplier-a' as const };
    await acknowledgeSupplierLine(runtime.salesDeps, line, context);
    if (n === 0) await shipSupplierLine(runtime.salesDeps, line, context);
    if (n === 1) await cancelSale(runtime.salesDeps, { incrementId: order.increment_id, saleProductIds: [table!], reason: 'changed mind' }, context);
  }
  await declareHoliday(runtime.write, { date: `2026-12-${String(day).padStart(2, '0')}`, label: `fermeture ${day}` }, context);
  await captureLead(runtime.write, { name: `Lead ${day}`, email: `lead${day}@example.org`, phone: null, projectName: null }, context);
};

const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** True once every projection has applied the whole log, as this instance sees it. */
const caughtUp = async (runtime: Runtime, timeoutMs = 60_000): Promise<boolean> => {
  const head = await runtime.eventStore.headPosition();
  return eventually(
    () => runtime.projections.waitFor(head, everyType),
    (ok) => ok,
    timeoutMs,
  );
};

const matchesRebuild = async (runtime: Runtime) =>
  verifyReadModels({
    eventStore: runtime.eventStore,
    live: runtime.readStore,
    projections: allProjections({ timezone }),
    scratch: openSqliteReadStore({ file: ':memory:' }),
  });

describe('MongoDB read models: faults and several instances', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const open = async (
    dataDir: string,
    mongodbUrl: string,
    instanceId: string,
    options: { readYourWrites?: boolean; keystoreMongodbUrl?: string } = {},
  ): Promise<Runtime> => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      MONGODB_URL: mongodbUrl,
      ...(options.keystoreMongodbUrl && { KEYSTORE_MONGODB_URL: options.keystoreMongodbUrl }),
      INSTANCE_ID: instanceId,
      PROJECTION_LEASE_TTL_MS: String(leaseTtlMs),
    });
    const runtime = await openRuntime(config, createLogger('silent'), options);
    cleanups.push(() => runtime.close());
    await runtime.projections.start();
    return runtime;
  };

  const scratchDir = async (prefix: string): Promise<string> => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  };

  it(
    'when the MongoDB server stops and restarts while orders keep coming, the projections resume from their checkpoints and end equal to a rebuild from the log',
    slow,
    async () => {
      const ferretDir = await scratchDir('ferretdb-fault-');
      let server: FerretDb = await startFerretDb({ dataDir: ferretDir });
      cleanups.push(() => server.stop());
      // Operations fail fast while the server is away, so that the projections meet the outage.
      const url = `${withDatabase(server.url, 'faults')}?serverSelectionTimeoutMS=300`;
      // Commands answer without waiting for the read models, which cannot follow during the outage. They
      // need the event store and, to seal personal data, the customers' keys: kept on another server here.
      const keys = withDatabase(await sharedMongoUrl(), `faults_keys_${randomUUID().slice(0, 8)}`);
      const runtime = await open(await scratchDir('fault-events-'), url, 'only', { readYourWrites: false, keystoreMongodbUrl: keys });

      await work(runtime, 1);
      expect(await caughtUp(runtime)).toBe(true);
      const before = (await matchesRebuild(runtime)).position;

      await server.stop();
      await work(runtime, 2); // the commands only need the event store (and the key store)
      const head = await runtime.eventStore.headPosition();
      // Meanwhile the read models cannot follow.
      expect(await runtime.projections.waitFor(head, everyType)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, leaseTtlMs));
      await work(runtime, 3);

      server = await startFerretDb({ dataDir: ferretDir, port: server.port });
      await work(runtime, 4);

      expect(await caughtUp(runtime)).toBe(true);
      const report = await matchesRebuild(runtime);
      expect(report.position).toBeGreaterThan(before ?? -1);
      expect(report.differences).toEqual([]);
      expect(report.ok).toBe(true);
      expect(runtime.projections.status().filter((status) => !status.running || status.lastError !== null)).toEqual([]);
    },
  );

  it(
    'when the documents of first batches were stored and not their checkpoints (MongoDB has no transaction across them), the next start looks for every document: the events after them change them',
    slow,
    async () => {
      const url = withDatabase(await sharedMongoUrl(), `cut_short_${randomUUID().slice(0, 8)}`);
      const first = await open(await scratchDir('cut-short-events-'), url, 'first');
      await work(first, 1);
      expect(await caughtUp(first)).toBe(true);
      // As if the process had died between the documents of its first batches and their checkpoints,
      // and orders had come on meanwhile (the commands need the event store only).
      await first.projections.stop();
      const client = await MongoClient.connect(url);
      await client.db().collection(checkpointsCollection).deleteMany({});
      await client.close();
      await work(first, 2);
      await first.close();

      const again = await open(first.config.dataDir, url, 'again');

      expect(await caughtUp(again)).toBe(true);
      expect((await matchesRebuild(again)).differences).toEqual([]);
    },
  );

  describe('two instances on one database', () => {
    const twoInstances = async () => {
      const url = withDatabase(await sharedMongoUrl(), `lease_${randomUUID().slice(0, 8)}`);
      const dataDir = await scratchDir('lease-events-');
      const first = await open(dataDir, url, 'first');
      const second = await open(dataDir, url, 'second');
      return { first, second };
    };

    /** Per projection, the instances that run it (not merely follow its checkpoint). */
    const runners = (...instances: Runtime[]) =>
      Object.fromEntries(
        allProjections({ timezone }).map(({ name }) => [
          name,
          instances.flatMap((instance, index) => {
            const status = instance.projections.status().find((candidate) => candidate.name === name);
            return status?.running && !status.elsewhere ? [index] : [];
          }),
        ]),
      );

    it('when both have started, each projection runs in exactly one of them, and the other one reads its writes', slow, async () => {
      const { first, second } = await twoInstances();

      expect(Object.values(runners(first, second)).map((indexes) => indexes.length)).toEqual(allProjections({ timezone }).map(() => 1));

      for (const instance of [first, second]) {
        const order = anOrder();
        const { written } = await importSale(instance.salesDeps, order, systemContext());
        // Waiting on the position the command wrote follows the projections of whichever instance runs them.
        expect(await instance.projections.waitFor(written!.position)).toBe(true);
        expect(await findSaleByIncrementId(instance.readStore, order.increment_id)).toMatchObject({ incrementId: order.increment_id });
        const head = await instance.eventStore.headPosition();
        expect(await instance.projections.waitFor(head, everyType)).toBe(true);
      }
    });

    it(
      "when the instance that does not run the supplier lines is asked a supplier's part version, it reads the checkpoint: moved by that supplier's change only",
      slow,
      async () => {
        const { first, second } = await twoInstances();
        const running = runners(first, second)['supplier-lines']![0] === 0 ? first : second;
        const following = running === first ? second : first;
        const version = () => following.projections.currentContentVersion('supplier-lines', 'supplier-b');
        const order = anOrder();
        const { written } = await importSale(running.salesDeps, order, systemContext());
        expect(await following.projections.waitFor(written!.position)).toBe(true);
        const before = await version();
        expect(before).not.toBeNull();

        // supplier-a's line only: supplier-b's part stands.
        const line = `${order.increment_id}_${(await findSaleByIncrementId(following.readStore, order.increment_id))!.products[0]!.saleProductId}`;
        const shipped = await shipSupplierLine(running.salesDeps, { serviceOrderId: line, supplier: 'supplier-a' }, systemContext());
        expect(await following.projections.waitFor(shipped.status === 'shipped' ? shipped.written!.position : -1)).toBe(true);
        expect(await version()).toBe(before);
        expect(await following.projections.currentContentVersion('supplier-lines', 'supplier-a')).not.toBe(before);
      },
    );

    it(
      'when an instance loses the database while another runs the projections, its /health answers 503 and names the unreadable checkpoints',
      slow,
      async () => {
        const { first: holder, second: follower } = await twoInstances();
        const health = async (instance: Runtime) => supertest(createRuntimeApp(instance).callback()).get('/health');
        expect((await health(follower)).status).toBe(200);

        await follower.readStore.close();
        const answer = await eventually(
          () => health(follower),
          (response) => response.status === 503,
          leaseTtlMs,
        );

        expect(answer.status).toBe(503);
        const followed = (answer.body as { projections: { name: string; caughtUp: boolean; error?: string }[] }).projections;
        expect(followed.map((projection) => projection.name)).toEqual(allProjections({ timezone }).map(({ name }) => name));
        for (const projection of followed) {
          expect(projection.caughtUp).toBe(false);
          expect(projection.error).toMatch(/checkpoint of the instance running it unreadable/);
        }
        // The instance that runs the projections is not concerned.
        expect((await health(holder)).status).toBe(200);
      },
    );

    it('when the instance running the projections dies, the other takes them over within the lease time and goes on from their checkpoints', slow, async () => {
      const { first: holder, second: survivor } = await twoInstances();
      // The first to start took every lease.
      expect(Object.values(runners(holder, survivor)).every((indexes) => indexes.length === 1 && indexes[0] === 0)).toBe(true);
      await work(survivor, 1);

      // Its connection to the database gone, the holder can neither renew its leases nor apply anything.
      const diedAt = Date.now();
      await holder.readStore.close();
      const taken = await eventually(
        async () => Object.values(runners(survivor)),
        (indexes) => indexes.every((running) => running.length === 1),
        leaseTtlMs * 4,
      );
      const tookOverIn = Date.now() - diedAt;

      expect(taken.every((running) => running.length === 1)).toBe(true);
      // At most one lease time after its last renewal, plus one renewal period to notice.
      expect(tookOverIn).toBeLessThan(leaseTtlMs + leaseTtlMs / 3 + 1000);
      await work(survivor, 2);
      expect(await caughtUp(survivor)).toBe(true);
      const report = await matchesRebuild(survivor);
      expect(report.differences).toEqual([]);
    });
  });
});
