import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DomainEvent, DomainEventType, StoredEvent } from '../../../src/events/registry.ts';
import { systemContext } from '../../../src/events/command-context.ts';
import { appendDomainEvents } from '../../../src/events/domain-store.ts';
import type { EventStore } from '../../../src/events/store/event-store.ts';
import { openSqliteEventStore } from '../../../src/events/store/sqlite-event-store.ts';
import { checkpointsCollection, type Checkpoint } from '../../../src/projections/checkpoints.ts';
import type { LogLevel, ProjectionEngineOptions } from '../../../src/projections/engine/engine-options.ts';
import { createProjectionEngine, type ProjectionEngine } from '../../../src/projections/engine/engine.ts';
import { checkpointName, routedReadStore, type RoutedReadStore } from '../../../src/projections/engine/generations.ts';
import { applyOnce, type Projection } from '../../../src/projections/projection.ts';
import type { ReadStore } from '../../../src/projections/read-store/read-store.ts';
import { openTestReadStoreWithCleanup } from '../../support/mongo-backend.ts';

export const frozenNow = new Date('2025-03-03T10:00:00.000Z');

/** A fresh SQLite log in its own directory, an empty read store (embedded in memory, or MongoDB: see mongo-backend.ts), and their cleanup. */
export const openStores = async () => {
  const directory = mkdtempSync(join(tmpdir(), 'projection-engine-'));
  const eventStore = openSqliteEventStore({ file: join(directory, 'events.sqlite'), pollIntervalMs: 10 });
  const { store: readStore, cleanup } = await openTestReadStoreWithCleanup();
  return {
    eventStore,
    readStore,
    close: async () => {
      await eventStore.close();
      await cleanup();
      rmSync(directory, { recursive: true, force: true });
    },
  };
};

export type Stores = Awaited<ReturnType<typeof openStores>>;

/**
 * An engine on the stores, as the runtime wires it: the projections write to the store, queries read
 * through `routes` (each projection's live generation). Returns both.
 */
export const engineOn = (
  stores: Stores,
  projections: readonly Projection[],
  options: Partial<ProjectionEngineOptions> = {},
): { engine: ProjectionEngine; routes: RoutedReadStore } => {
  const routes = routedReadStore(stores.readStore, projections);
  const engine = createProjectionEngine({
    eventStore: stores.eventStore,
    readStore: stores.readStore,
    routes,
    projections,
    lease: { owner: `test-${randomUUID()}`, ttlMs: 10_000, replaceDeadHolders: true },
    log: recordingLog().log,
    ...options,
  });
  return { engine, routes };
};

export const holidayDeclared = (date: string): DomainEvent => ({
  type: 'HolidayDeclared',
  data: { date, label: `holiday ${date}`, declaredAt: frozenNow.toISOString() },
});

export const holidayRemoved = (date: string): DomainEvent => ({
  type: 'HolidayRemoved',
  data: { date, removedAt: frozenNow.toISOString() },
});

export const saleCancelled = (saleId: number): DomainEvent => ({
  type: 'SaleCancelled',
  data: { saleId, reason: 'customer request', cancelledAt: frozenNow.toISOString() },
});

/** Appends through the registry, as the command handlers do; returns the append's last position. */
export const append = async (store: EventStore, streamName: string, events: readonly DomainEvent[]): Promise<number> => {
  const result = await appendDomainEvents(store, streamName, events, systemContext(randomUUID()), frozenNow, 'any');
  return result.position;
};

/** A document of the test projection below: one per declared or removed holiday. */
export type HolidayDay = { _id: string; declared: boolean; changes: number; _position: number };

/**
 * A projection of holidays that also remembers, outside the read store, every event it was handed:
 * a replay shows up there even when the idempotent update hides it in the read model.
 */
export const holidaysProjection = (
  name = 'holidays',
  options: {
    failOn?: (event: StoredEvent) => boolean;
    blockOn?: (event: StoredEvent) => Promise<void> | undefined;
    /** The projection's version; `label` goes into each document, so that two versions build different documents. */
    version?: number;
    label?: string;
  } = {},
) => {
  const applied: number[] = [];
  const collection = `${name}_days`;
  const projection: Projection = {
    name,
    version: options.version ?? 1,
    eventTypes: ['HolidayDeclared', 'HolidayRemoved'] satisfies DomainEventType[],
    collections: [collection],
    async setup(store) {
      await store.collection(collection).createIndex({ declared: 1 });
    },
    async apply(event, store) {
      if (event.type !== 'HolidayDeclared' && event.type !== 'HolidayRemoved') return;
      await options.blockOn?.(event);
      if (options.failOn?.(event)) throw new Error(`cannot apply ${event.data.date}`);
      applied.push(event.position);
      await applyOnce(
        store.collection<HolidayDay>(collection),
        event.data.date,
        event.position,
        { $set: { declared: event.type === 'HolidayDeclared', ...(options.label !== undefined && { label: options.label }) }, $inc: { changes: 1 } },
        { upsert: true },
      );
    },
  };
  return { projection, applied, collection };
};

/** Counts cancelled sales: a second projection, on other event types. */
export type Cancellation = { _id: number; reason: string; _position: number };

export const cancellationsProjection = (): { projection: Projection; applied: number[] } => {
  const applied: number[] = [];
  const projection: Projection = {
    name: 'cancellations',
    version: 1,
    eventTypes: ['SaleCancelled'],
    collections: ['cancellations'],
    async apply(event, store) {
      if (event.type !== 'SaleCancelled') return;
      applied.push(event.position);
      await applyOnce(
        store.collection<Cancellation>('cancellations'),
        event.data.saleId,
        event.position,
        { $set: { reason: event.data.reason } },
        { upsert: true },
      );
    },
  };
  return { projection, applied };
};

export type LogLine = { level: LogLevel; message: string; fields: Record<string, unknown> | undefined };

export const recordingLog = () => {
  const lines: LogLine[] = [];
  return { lines, log: (level: LogLevel, message: string, fields?: Record<string, unknown>) => lines.push({ level, message, fields }) };
};

/** The stored checkpoint of a projection's generation (the first one by default). */
export const checkpointOf = async (store: ReadStore, name: string, generation = 1): Promise<number | undefined> =>
  (await store.collection<Checkpoint>(checkpointsCollection).findOne({ _id: checkpointName(name, generation) }))?.position;

export { eventually } from '../../support/eventually.ts';

/** The store with some of its methods replaced (its class methods are not own properties: a spread would lose them). */
export const watch = <Store extends EventStore>(store: Store, overrides: Partial<EventStore>): Store =>
  new Proxy(store, { get: (target, property: keyof EventStore) => overrides[property] ?? (target[property] as (...args: unknown[]) => unknown).bind(target) });
