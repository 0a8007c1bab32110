import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Config } from './config/config.ts';
import { resolveTokenSecret } from './config/token-secret.ts';
import { reportReadRepairsTo } from './events/catalogue/read-repairs.ts';
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
import { createMetrics, type Metrics } from './metrics/metrics.ts';
import { registerReadSideGauges } from './metrics/read-side-gauges.ts';
import { createLabelBacklog, type LabelBacklog } from './labels/label-backlog.ts';
import type { Logger } from './logger.ts';
import { createInvoicing, type Invoicing } from './invoices/invoicing.ts';
import { createPdfPool, type PdfPool } from './pdf/pdf-pool.ts';
import { accessTokensProjection } from './projections/access/access-tokens-projection.ts';
import { cachedTokenLookup, catchingUpOnUnknown, type TokenLookup } from './projections/access/token-lookup.ts';
import { allProjections } from './projections/all-projections.ts';
import { createProjectionEngine, type ProjectionEngine } from './projections/engine/engine.ts';
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
  /** The PDF renderers: worker threads, started on the first document (or by warmUp). */
  pdf: PdfPool;
  /** The labels of imported orders, rendered in the background once started (the server starts it). */
  labels: LabelBacklog;
  /** The registers of invoices and credit notes: one issuer per process, batching what waits. */
  invoicing: Invoicing;
  isOpen: () => boolean;
  close: () => Promise<void>;
};

export const eventStoreFile = (config: Config): string => path.join(config.dataDir, 'events.sqlite');

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
  const eventStore = timedEventStore(await openEventStore(config), metrics.observeAppend);
  const stored = await openReadStore(config);
  const definitions = allProjections({ timezone: config.planningTimezone });
  const readStore = routedReadStore(stored, definitions);
  const projections = createProjectionEngine({
    eventStore,
    readStore: stored,
    routes: readStore,
    projections: definitions,
    // Instances sharing a MongoDB database, or processes sharing the embedded file (the CLI beside the
    // server), run each projection in one of them: the one holding its lease.
    lease: { owner: config.instanceId, ttlMs: config.projectionLeaseTtlMs, replaceDeadHolders: !config.mongodbUrl },
    readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
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
  const write: WriteDeps = {
    eventStore,
    clock,
    awaitProjections: async (position, types) => {
      if (options.readYourWrites !== false) await projections.waitFor(position, types);
    },
  };
  const salesDeps: ImportSaleDeps = { ...write, ids, findProduct: catalogLookup(eventStore) };
  const labels = createLabelBacklog({ config, readStore, salesDeps, pdf, eventStore, log, concurrency: config.pdf.workers });
  const invoicing = createInvoicing({
    eventStore,
    readStore,
    clock,
    context: systemContext(randomUUID()),
    timezone: config.planningTimezone,
    seller: config.seller,
    caughtUp: (position) => projections.waitFor(position, ['InvoiceIssued', 'CreditNoteIssued']),
  });
  registerReadSideGauges(metrics.registry, { eventStore, projections, readStore, labels });
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
    tokenSecret: resolveTokenSecret(config.tokenSecret, config.dataDir),
    pdf,
    labels,
    invoicing,
    isOpen: () => open,
    close: async () => {
      if (!open) return;
      open = false;
      stopReportingRepairs();
      // The labels being rendered are finished and the backlog's checkpoint saved before the stores close.
      await labels.stop();
      await pdf.close();
      await projections.stop();
      await eventStore.close();
      await readStore.close();
    },
  };
};
