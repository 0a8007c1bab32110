import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Config } from './config/config.ts';
import { prepareDataDir } from './config/data-dir.ts';
import { opening } from './config/store-failures.ts';
import { resolveTokenSecret } from './config/token-secret.ts';
import { reportReadRepairsTo } from './events/schema/read-repairs.ts';
import { systemClock, systemContext, type Clock } from './events/command-context.ts';
import type { WriteDeps } from './events/command-handler.ts';
import { productDecider } from './events/catalog/product-decider.ts';
import { productStreamName, type ProductEvent } from './events/catalog/events.ts';
import { fold } from './events/decider.ts';
import { readDomainStream } from './events/domain-store.ts';
import type { PlanningDeps } from './events/planning/planning-handlers.ts';
import type { FindProduct, ImportSaleDeps } from './events/sales/import-sale.ts';
import { createIdAllocator, type IdAllocator } from './events/ids/id-allocator.ts';
import type { EventStore } from './events/store/event-store.ts';
import { namespacedEventStore } from './events/store/namespaced-event-store.ts';
import { openSqliteEventStore } from './events/store/sqlite-event-store.ts';
import { timedEventStore } from './events/store/timed-event-store.ts';
import { encryptingEventStore, type EncryptingEventStore } from './events/personal-data/encrypting-event-store.ts';
import type { KeyStore } from './events/personal-data/key-store.ts';
import { openSqliteKeyStore } from './events/personal-data/sqlite-key-store.ts';
import { createMetrics, type Metrics } from './metrics/metrics.ts';
import { registerReadSideGauges } from './metrics/read-side-gauges.ts';
import type { WebhookDeps } from './webhooks/webhook-subscriptions.ts';
import { createLabelBacklog, type LabelBacklog } from './labels/label-backlog.ts';
import { leasedLabelBacklog } from './labels/leased-label-backlog.ts';
import type { Logger } from './logger.ts';
import { createInvoicing, type Invoicing } from './invoicing/invoicing.ts';
import { createPdfPool, type PdfPool } from './pdf/pdf-pool.ts';
import { accessTokensProjection } from './projections/access/access-tokens-projection.ts';
import { cachedTokenLookup, catchingUpOnUnknown, type TokenLookup } from './projections/access/token-lookup.ts';
import { allProjections } from './projections/all-projections.ts';
import { createProjectionEngine, type ProjectionEngine } from './projections/engine/engine.ts';
import { resolveLogSigningKey } from './config/log-signing-key.ts';
import type { SigningKey } from './events/audit/tree-head.ts';
import { followLogIntoTree, type TreeFollower } from './events/audit/tree-follower.ts';
import { openTreeStore, type TreeStore } from './events/audit/tree-store.ts';
import { createLogNotary, leasedLogNotary, type LeasedLogNotary } from './jobs/log-notary.ts';
import { routedReadStore } from './projections/engine/generations.ts';
import type { ReadStore } from './projections/read-store/read-store.ts';
import { openSqliteReadStore } from './projections/read-store/sqlite-read-store.ts';

/**
 * The composition root: opens the configured event store and read store, wires the projections and
 * hands the same dependencies to the HTTP server, the jobs and the CLI.
 */
export type Runtime = {
  config: Config;
  log: Logger;
  eventStore: EventStore;
  /** The read models as queries see them (each projection's live generation). */
  readStore: ReadStore;
  projections: ProjectionEngine;
  /** The access tokens, as every request's authentication reads them. */
  accessTokens: TokenLookup;
  clock: Clock;
  ids: IdAllocator;
  /** This process's Prometheus metrics (GET /metrics). */
  metrics: Metrics;
  write: WriteDeps;
  /** The write side of the plannings (SAV and delivery appointments): days are local to PLANNING_TIMEZONE. */
  planning: PlanningDeps;
  salesDeps: ImportSaleDeps;
  tokenSecret: string;
  /** The suppliers' webhook subscriptions (their deliveries: jobs/webhook-deliverer.ts, started by the server). */
  webhooks: WebhookDeps;
  /** The customers' keys and the layer sealing their personal data in the log (crypto-shredding). */
  personalData: {
    keys: KeyStore;
    log: EncryptingEventStore;
    /** The store under the encrypting layer: events as recorded (sealed, or clear when written before encryption). */
    recorded: EventStore;
    /** This log's name in the key store's migration state. */
    logIdentity: string;
    /** Leaves no byte of scrubbed read-model values in the read store's files (embedded store). */
    releaseFreedBytes: () => Promise<void>;
  };
  /** The PDF renderers: worker threads, started on the first document (or by warmUp). */
  pdf: PdfPool;
  /** The labels of imported orders, rendered in the background once started (the server starts it), by the instance holding its lease. */
  labels: LabelBacklog;
  /** The registers of invoices and credit notes: one issuer per process, batching what waits. */
  invoicing: Invoicing;
  /**
   * The log's Merkle tree, this instance's own, and what keeps it: its follower (started by every
   * server), and the notary that signs its heads (started by every server, signing in the one holding its lease).
   * Undefined when LOG_NOTARY=off: no tree file, no signing key, no heads.
   */
  logAudit: LogAudit | undefined;
  isOpen: () => boolean;
  close: () => Promise<void>;
};

export const eventStoreFile = (config: Config): string => path.join(config.dataDir, 'events.sqlite');

/**
 * The name of the configured log for the key store's migration state: `embedded`, or the EventStoreDB
 * hosts and namespace (never its credentials or options).
 */
export const logIdentity = (config: Pick<Config, 'eventStoreUrl' | 'eventStoreNamespace'>): string => {
  if (!config.eventStoreUrl) return 'embedded';
  const hosts = /^[a-z+]+:\/\/(?:[^@/]*@)?([^/?]*)/.exec(config.eventStoreUrl)?.[1] ?? config.eventStoreUrl;
  return `eventstoredb ${hosts}${config.eventStoreNamespace ? ` ${config.eventStoreNamespace}` : ''}`;
};

/** The embedded key store: the customers' keys, in a file of their own (never in the log, never in the read models). */
export const keyStoreFile = (config: Config): string => path.join(config.dataDir, 'keys.sqlite');

/**
 * The customers' keys: on MongoDB when configured (KEYSTORE_MONGODB_URL, else MONGODB_URL's server in
 * `<database>_keys`: never the read models' own database, which a rebuild drops whole), else embedded.
 * How often an instance checks for erasures made elsewhere: at every read on the embedded file (a
 * cheap read), every second on MongoDB.
 */
export const openKeyStore = async (config: Config): Promise<{ keys: KeyStore; stampCheckMs: number }> => {
  const url = config.keystoreMongodbUrl ?? config.mongodbUrl;
  if (url) {
    const { openMongoKeyStore } = await import('./events/personal-data/mongo-key-store.ts');
    const { databaseInUrl } = await import('./projections/read-store/mongo-read-store.ts');
    const dbName = config.keystoreMongodbUrl ? (databaseInUrl(url) ?? 'sav_keys') : `${databaseInUrl(url) ?? 'sav'}_keys`;
    return { keys: await openMongoKeyStore({ url, dbName }), stampCheckMs: 1_000 };
  }
  return { keys: openSqliteKeyStore({ file: keyStoreFile(config) }), stampCheckMs: 0 };
};

/** The embedded read models: derived data, in a file of their own that can be deleted and rebuilt from the log. */
export const readModelsFile = (config: Config): string => path.join(config.dataDir, 'read-models.sqlite');

// The production adapters are loaded only when configured: their clients (gRPC, the MongoDB driver)
// take a third of a second to load, which the embedded default's start-up does not pay.

export const openEventStore = async (config: Config): Promise<EventStore> => {
  if (config.eventStoreUrl) {
    const { openEsdbEventStore } = await import('./events/store/esdb/esdb-event-store.ts');
    const store = openEsdbEventStore({ url: config.eventStoreUrl });
    return config.eventStoreNamespace ? namespacedEventStore(store, config.eventStoreNamespace) : store;
  }
  return openSqliteEventStore({ file: eventStoreFile(config) });
};

export const openReadStore = async (config: Config): Promise<ReadStore> => {
  // The database is the one the URL names, `sav` when it names none.
  if (config.mongodbUrl) {
    const { openMongoReadStore } = await import('./projections/read-store/mongo-read-store.ts');
    return openMongoReadStore({ url: config.mongodbUrl });
  }
  return openSqliteReadStore({ file: readModelsFile(config) });
};

/** The catalog's data for a SKU, read from its stream (the write side does not depend on read models). */
const catalogLookup =
  (eventStore: EventStore): FindProduct =>
  async (sku) => {
    const { events } = await readDomainStream<ProductEvent>(eventStore, productStreamName(sku));
    const state = fold(productDecider, events);
    if (state.status === 'absent') return null;
    const { wholesale_price, supplier, carrier } = state.product;
    return { wholesale_price, supplier, carrier };
  };

export type LogAudit = { tree: TreeStore; key: SigningKey; follower: TreeFollower; notary: LeasedLogNotary };

/** The log's tree file, its follower, the signing key and the notary (LOG_NOTARY=on). */
const openLogAudit = (config: Config, deps: { recorded: EventStore; eventStore: EventStore; readStore: ReadStore; clock: Clock; log: Logger }): LogAudit => {
  const { recorded, eventStore, readStore, clock, log } = deps;
  const key = resolveLogSigningKey(config.logNotary.signingKey, config.dataDir);
  const tree = openTreeStore(config.logNotary.treeFile);
  const follower = followLogIntoTree({ recorded, tree, log });
  const notary = leasedLogNotary(
    { config, readStore, log },
    createLogNotary({
      recorded,
      eventStore,
      tree,
      follower,
      key,
      clock,
      log,
      instanceId: config.instanceId,
      headEveryEvents: config.logNotary.headEveryEvents,
      headEverySeconds: config.logNotary.headEverySeconds,
    }),
  );
  return { tree, key, follower, notary };
};

export const openRuntime = async (
  config: Config,
  log: Logger,
  options: {
    clock?: Clock;
    idBlockSize?: number;
    /** False for processes that serve no reads (the CLI): commands then return without waiting for projections. */
    readYourWrites?: boolean;
    /** The PDF worker module; the service's own by default (a test may give one that fails on purpose). */
    pdfWorker?: URL;
  } = {},
): Promise<Runtime> => {
  const clock = options.clock ?? systemClock;
  const metrics = createMetrics();
  prepareDataDir(config.dataDir);
  const stored = await opening(config, () => openEventStore(config), config.eventStoreUrl ? undefined : eventStoreFile(config));
  const { keys, stampCheckMs } = await opening(
    config,
    () => openKeyStore(config),
    (config.keystoreMongodbUrl ?? config.mongodbUrl) ? undefined : keyStoreFile(config),
  );
  // Events up to the head the key store first saw were written before encryption (migrate-personal-data.ts).
  await keys.recordLegacyHead(logIdentity(config), await stored.headPosition());
  const sealing = encryptingEventStore(stored, keys, { stampCheckMs });
  const eventStore = timedEventStore(sealing, metrics.observeAppend);
  const storedReadModels = await opening(config, () => openReadStore(config), config.mongodbUrl ? undefined : readModelsFile(config));
  const definitions = allProjections({ timezone: config.planningTimezone });
  const readStore = routedReadStore(storedReadModels, definitions);
  const projections = createProjectionEngine({
    eventStore,
    readStore: storedReadModels,
    routes: readStore,
    projections: definitions,
    // Instances sharing a MongoDB database, or processes sharing the embedded file (the CLI beside the
    // server), run each projection in one of them: the one holding its lease.
    lease: { owner: config.instanceId, ttlMs: config.projectionLeaseTtlMs, replaceDeadHolders: !config.mongodbUrl },
    readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
    sharedStore: Boolean(config.mongodbUrl),
    maxBatch: config.projectionBatchSize,
    log: (level, message, fields) => log[level]({ ...fields }, message),
  });
  const ids = createIdAllocator(eventStore, systemContext(randomUUID()), {
    blockSize: options.idBlockSize,
    now: () => clock.now(),
  });
  // An old log's event read within today's bounds is logged once per read, with where it is.
  const stopReportingRepairs = reportReadRepairsTo(({ reason, ...repair }) => log.warn(repair, `event repaired on read: ${repair.field} ${reason}`));
  let open = true;
  const pdf = createPdfPool({ ...config.pdf, threads: config.pdf.workers, log, worker: options.pdfWorker });
  const write: WriteDeps = { eventStore, clock };
  const salesDeps: ImportSaleDeps = { ...write, ids, findProduct: catalogLookup(eventStore) };
  // In the one instance holding its lease, from the checkpoint the instances share in DATA_DIR. Two
  // orders per renderer: while one's label renders, another's line is read or its file written.
  const labels = leasedLabelBacklog({ config, readStore, log }, () =>
    createLabelBacklog({ config, readStore, salesDeps, pdf, eventStore, log, concurrency: 2 * config.pdf.workers }),
  );
  const invoicing = createInvoicing({
    eventStore,
    readStore,
    clock,
    context: systemContext(randomUUID()),
    timezone: config.planningTimezone,
    seller: config.seller,
    caughtUp: (position) => projections.waitFor(position, ['InvoiceIssued', 'CreditNoteIssued']),
  });
  const logAudit = config.logNotary.enabled ? openLogAudit(config, { recorded: stored, eventStore, readStore, clock, log }) : undefined;
  registerReadSideGauges(metrics.registry, { eventStore, projections, readStore, labels });
  const tokenSecret = resolveTokenSecret(config.tokenSecret, config.dataDir);
  return {
    config,
    log,
    eventStore,
    readStore,
    projections,
    accessTokens: cachedTokenLookup(readStore, () => projections.contentVersion(accessTokensProjection.name), {
      whenUnknown: catchingUpOnUnknown(readStore, {
        head: () => eventStore.headPosition(),
        catchUp: (position) => projections.waitFor(position, accessTokensProjection.eventTypes),
      }),
    }),
    clock,
    ids,
    metrics,
    write,
    planning: { ...write, timezone: config.planningTimezone },
    salesDeps,
    tokenSecret,
    webhooks: { ...write, readStore, tokenSecret, urlPolicy: { allowHosts: config.webhookTest.allowHosts } },
    personalData: {
      keys,
      log: sealing,
      recorded: stored,
      logIdentity: logIdentity(config),
      releaseFreedBytes: async () => storedReadModels.releaseFreedBytes?.(),
    },
    pdf,
    labels,
    invoicing,
    logAudit,
    isOpen: () => open,
    close: async () => {
      if (!open) return;
      open = false;
      stopReportingRepairs();
      // The labels being rendered are finished and the backlog's checkpoint saved before the stores close.
      await labels.stop();
      if (logAudit) {
        await logAudit.notary.stop();
        await logAudit.follower.stop();
        logAudit.tree.close();
      }
      await pdf.close();
      await projections.stop();
      await eventStore.close();
      await keys.close();
      await readStore.close();
    },
  };
};
