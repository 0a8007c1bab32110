import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock, type Clock } from '../../events/command-context.ts';
import type { EventStore } from '../../events/store/event-store.ts';
import { checkpointsCollection, readCheckpoint } from '../checkpoints.ts';
import type { Projection } from '../projection.ts';
import { holdLease, setupLeases, type LeaseHolder } from '../projection-lease.ts';
import { ReadStoreUnavailableError, type ReadStore } from '../read-store/read-store.ts';
import { collectOldGenerations } from './garbage.ts';
import {
  checkpointName,
  generationsCollection,
  readGenerations,
  requestRebuild,
  type Generation,
  type GenerationsDocument,
  type RoutedReadStore,
} from './generations.ts';
import { LogReader } from './log-reader.ts';
import { ProgressMeter, type CatchUpProgress } from './progress.ts';
import { applyBatch, decodeBatch, ProjectionSlot } from './projection-slot.ts';
import { followSharedCheckpoints } from './shared-checkpoints.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type ProjectionLog = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

export type ProjectionStatus = {
  name: string;
  version: number;
  /** The generation queries read; null before the first one. */
  generation: number | null;
  /** Position of the last event applied to the live generation; null before the first one. */
  position: number | null;
  caughtUp: boolean;
  running: boolean;
  lastError: string | null;
  /** Another instance holds its lease and runs it: `position` is its stored checkpoint as last read. */
  elsewhere?: boolean;
  /** A new generation being built beside the live one (a new version, or `projections rebuild`). */
  rebuilding?: { generation: number; version: number; position: number | null };
};

export type ProjectionEngineOptions = {
  eventStore: EventStore;
  /** The store the projections write to. */
  readStore: ReadStore;
  /** The same store as the queries see it: the engine points it at each projection's live generation. */
  routes: RoutedReadStore;
  projections: readonly Projection[];
  /** This instance among those sharing the read store, and how long its leases last unrenewed. */
  lease: { owner: string; ttlMs: number; clock?: Clock; replaceDeadHolders?: boolean };
  log?: ProjectionLog;
  /** How long a command waits for its read models before answering anyway. */
  readYourWritesTimeoutMs?: number;
  /** Events per batch while catching up. */
  maxBatch?: number;
  /** How often the registry of generations is read (rebuild requests, swaps made by other instances). */
  registryPollMs?: number;
  /** How often the checkpoints of projections run by other instances are read while a write waits on them. */
  sharedCheckpointPollMs?: number;
  /** How long the collections of a generation swapped out stay, for the instances still reading them. */
  retiredGenerationGraceMs?: number;
  /** Other instances may run projections on this store (MongoDB): `currentPosition` reads the stored checkpoints. */
  sharedStore?: boolean;
};

export type ProjectionEngine = {
  /** Takes the leases, sets the read models up and resolves once those run here have caught up with the log. */
  start(): Promise<void>;
  /** True once `start` has caught up. */
  isReady(): boolean;
  progress(): CatchUpProgress;
  /**
   * Read-your-writes: true once every projection reading one of `types` has applied the log up to
   * `position`; false when one of them has stopped or the wait timed out (the write itself succeeded).
   */
  waitFor(position: number, types: readonly string[]): Promise<boolean>;
  /** The position a projection's live generation has applied up to, here or (last read) elsewhere. */
  appliedPosition(name: string): number | null;
  /**
   * The position a projection's live generation has applied up to as of this call, whichever instance
   * runs it: this process's own position when it runs the projection on a store of its own; otherwise
   * its stored checkpoint, read now (the other instances' writes included). What an answer cached from
   * a read model is checked against, so that no instance serves a change older than a command that has
   * answered.
   */
  currentPosition(name: string): Promise<number | null>;
  /**
   * A stamp that changes whenever a projection's documents may have changed (its generation, and the
   * last batch that changed them here, or its checkpoint as last read when another instance runs it):
   * what an answer cached from its read model is checked against. Null when unknown.
   */
  contentVersion(name: string): string | null;
  /**
   * The content version as of this call: when another instance (or process) runs the projection, with
   * its stored checkpoint read now rather than as last read, so that an answer kept from the read model
   * is never older than a command that has answered in any of them.
   */
  currentContentVersion(name: string): Promise<string | null>;
  /** Builds the projections anew beside their live generations, here or in the instance holding their lease. */
  requestRebuild(names?: readonly string[]): Promise<void>;
  stop(): Promise<void>;
  status(): ProjectionStatus[];
};

const stderrLog: ProjectionLog = (level, message, fields) => {
  if (level === 'warn' || level === 'error') console.error(JSON.stringify({ level, message, ...fields }));
};

/** Waits between tries while the read store is unreachable: doubling from the first to the last. */
const retryBaseMs = 50;
const retryMaxMs = 2000;
const progressLogEveryMs = 5000;
/** How long read-your-writes waits for a batch before it looks in the log itself. */
const firstWaitMs = 100;
/** How often a wait checks again whether the slot's reader has gone idle. */
const idleCheckMs = 50;

/** A reader and the slots it feeds: the main one keeps the live generations up to date; others build or catch up. */
type Feed = {
  kind: 'main' | 'builder';
  reader: LogReader;
  slots: ProjectionSlot[];
  /** The last position of a batch applied. */
  applied: number | undefined;
  /** The position at which this feed had read everything that existed when it started; undefined until then. */
  caughtUpAt: number | undefined | null;
  /** A batch is being applied. */
  applying: boolean;
  done: Promise<void>;
};

/**
 * Runs the projections: one reader of the log for the live read models, decoding each event once and
 * applying it to every projection in batches; checkpoints written with the documents. A projection
 * runs in the one instance holding its lease (several instances may share a MongoDB read store; on
 * the embedded store the CLI and the server share the file). A new version of a projection, or
 * `projections rebuild`, is built by a second reader into a new generation while the live one keeps
 * serving, and swapped in once it has caught up.
 */
export const createProjectionEngine = (options: ProjectionEngineOptions): ProjectionEngine => {
  const { eventStore, readStore: base, routes, projections } = options;
  const log = options.log ?? stderrLog;
  const timeoutMs = options.readYourWritesTimeoutMs ?? 2000;
  const maxBatch = options.maxBatch ?? 2000;
  const clock = options.lease.clock ?? systemClock;
  const allTypes = [...new Set(projections.flatMap((projection) => projection.eventTypes))];
  const byName = new Map(projections.map((projection) => [projection.name, projection]));

  const live = new Map<string, ProjectionSlot>();
  const building = new Map<string, ProjectionSlot>();
  /** The projections whose live generation belongs to an older version: served as they are, not updated here. */
  const frozen = new Set<string>();
  const holders = new Map<string, LeaseHolder>();
  const held = new Set<string>();
  let generations = new Map<string, GenerationsDocument>();
  let main: Feed | undefined;
  const builders = new Set<Feed>();
  let started = false;
  let stopping = false;
  let ready = false;
  let becomeReady: () => void = () => undefined;
  const whenReady = new Promise<void>((resolve) => (becomeReady = resolve));
  let head = -1;
  const meter = new ProgressMeter();
  let lastProgressLog = 0;
  const timers: NodeJS.Timeout[] = [];
  /** Batches and changes to the set of slots run one at a time. */
  let exclusive: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const done = exclusive.then(work);
    exclusive = done.catch(() => undefined);
    return done;
  };

  const shared = followSharedCheckpoints({
    eventStore,
    readStore: base,
    checkpointOf: (name) => {
      const generation = generations.get(name)?.live?.generation;
      return generation === undefined ? undefined : checkpointName(name, generation);
    },
    notRunHere: () => projections.map((projection) => projection.name).filter((name) => !live.has(name)),
    pollMs: options.sharedCheckpointPollMs ?? 25,
  });
  let sharedError: string | null = null;

  // ---- reading the log ----

  const openFeed = (kind: Feed['kind'], slots: ProjectionSlot[], fromPosition: number | undefined): Feed => {
    const reader = new LogReader(eventStore, { fromPosition, eventTypes: allTypes, maxBatch });
    const feed: Feed = { kind, reader, slots, applied: fromPosition, caughtUpAt: undefined, applying: false, done: Promise.resolve() };
    reader.caughtUp.then(
      (at) => {
        feed.caughtUpAt = at ?? null;
        checkReady();
        // A builder that caught up on a quiet log gets no further batch to hand its slots over after.
        if (kind === 'builder') void serially(() => mergeIfCaughtUp(feed));
      },
      () => undefined,
    );
    feed.done = run(feed);
    return feed;
  };

  const feedCaughtUp = (feed: Feed): boolean =>
    feed.caughtUpAt !== undefined && (feed.caughtUpAt === null || (feed.applied !== undefined && feed.applied >= feed.caughtUpAt));

  const run = async (feed: Feed): Promise<void> => {
    try {
      for (;;) {
        const batch = await feed.reader.next();
        if (!batch) return;
        feed.applying = true;
        const decoded = decodeBatch(batch);
        // The live read models' batches exclude changes to the set of slots; a builder, writing to
        // collections nothing else writes, goes on beside them (its hand-over to the main reader is exclusive).
        const guard = feed.kind === 'main' ? serially : <T>(work: () => Promise<T>) => work();
        await guard(async () => {
          for (let attempt = 0; ; attempt += 1) {
            try {
              const { applied, failures } = await applyBatch(base, feed.slots, decoded, () => Date.now());
              for (const { slot, at, error } of failures) {
                log('error', 'Projection stopped on an event it could not apply', {
                  projection: slot.name,
                  generation: slot.generation.generation,
                  eventType: at.type,
                  position: at.position,
                  eventId: at.id,
                  streamName: at.streamName,
                  error: error instanceof Error ? error.message : String(error),
                });
              }
              feed.applied = batch.at(-1)!.position;
              if (applied > 0) meter.record(Date.now(), batch.length, feed.applied);
              if (attempt > 0) {
                for (const slot of feed.slots) slot.lastError = slot.failed ? slot.lastError : null;
                log('info', 'Read store reachable again; projections resume', {});
              }
              return;
            } catch (error) {
              if (!(error instanceof ReadStoreUnavailableError) || stopping) throw error;
              for (const slot of feed.slots) if (!slot.failed) slot.lastError = error.message;
              if (attempt === 0) log('warn', 'Read store unreachable; projections wait for it', { error: error.message });
              await sleep(Math.min(retryBaseMs * 2 ** attempt, retryMaxMs));
            }
          }
        });
        feed.applying = false;
        if (feed.kind === 'builder') await serially(() => mergeIfCaughtUp(feed));
        checkReady();
        logProgress();
        // Reading and applying the log chains promises only: without a turn of the event loop between
        // batches, a catch-up would hold every request (/health included) until its end.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      if (stopping) return;
      const message = error instanceof Error ? error.message : String(error);
      log('error', 'Projections stopped: the log could not be read', { error: message });
      for (const slot of feed.slots) slot.fail(message);
    }
  };

  const checkReady = (): void => {
    if (ready || !main || !feedCaughtUp(main)) return;
    ready = true;
    becomeReady();
    log('info', 'Read models ready', { position: main.applied ?? null });
  };

  const logProgress = (): void => {
    const now = Date.now();
    if (ready || now - lastProgressLog < progressLogEveryMs) return;
    lastProgressLog = now;
    const { position, head: last, eventsPerSecond, etaSeconds } = progress();
    log('info', 'Catching up with the log', { position, head: last, eventsPerSecond: Math.round(eventsPerSecond), etaSeconds });
  };

  // ---- generations ----

  const saveGenerations = async (doc: GenerationsDocument): Promise<void> => {
    generations.set(doc._id, doc);
    await base
      .collection<GenerationsDocument>(generationsCollection)
      .updateOne({ _id: doc._id }, { $set: { live: doc.live, next: doc.next, last: doc.last }, $setOnInsert: { rebuildRequestedAt: null } }, { upsert: true });
  };

  const newSlot = async (projection: Projection, generation: Generation): Promise<ProjectionSlot> => {
    const checkpoint = await readCheckpoint(base, checkpointName(projection.name, generation.generation));
    const slot = new ProjectionSlot(projection, generation, checkpoint);
    await projection.setup?.(slot.scoped(base));
    return slot;
  };

  /** The slots of a projection whose lease this instance just took: its live generation, and the next one if one is owed. */
  const prepare = async (projection: Projection): Promise<{ live?: ProjectionSlot; next?: ProjectionSlot }> => {
    const doc: GenerationsDocument = generations.get(projection.name) ?? { _id: projection.name, live: null, next: null, last: 0, rebuildRequestedAt: null };
    if (doc.live === null) {
      // The first build: the read model has nothing to serve before it, so it is built as the live one.
      const generation = { generation: doc.last + 1, version: projection.version };
      await saveGenerations({ ...doc, live: generation, next: null, last: generation.generation });
      routes.route(projection.name, generation.generation);
      return { live: await newSlot(projection, generation) };
    }
    routes.route(projection.name, doc.live.generation);
    const current = doc.live.version === projection.version;
    const owed = !current || Boolean(doc.next) || Boolean(doc.rebuildRequestedAt);
    let next: Generation | undefined;
    if (owed) {
      // A build under way keeps its generation (and resumes from its checkpoint) if it is of this version.
      next = doc.next?.version === projection.version ? doc.next : { generation: doc.last + 1, version: projection.version };
      await saveGenerations({ ...doc, next, last: Math.max(doc.last, next.generation) });
      if (doc.rebuildRequestedAt) await clearRequest(projection.name, doc.rebuildRequestedAt);
      log('info', current ? 'Rebuilding a read model beside the live one' : 'Building the new version of a read model beside the live one', {
        projection: projection.name,
        live: doc.live,
        next,
      });
    }
    if (!current) frozen.add(projection.name);
    return {
      ...(current && { live: await newSlot(projection, doc.live) }),
      ...(next && { next: await newSlot(projection, next) }),
    };
  };

  const clearRequest = async (name: string, requestedAt: string): Promise<void> => {
    await base
      .collection<GenerationsDocument>(generationsCollection)
      .updateOne({ _id: name, rebuildRequestedAt: requestedAt }, { $set: { rebuildRequestedAt: null } });
    const doc = generations.get(name);
    if (doc) generations.set(name, { ...doc, rebuildRequestedAt: null });
  };

  const startBuilder = (slots: ProjectionSlot[]): void => {
    const from = Math.min(...slots.map((slot) => slot.position ?? -1));
    builders.add(openFeed('builder', slots, from < 0 ? undefined : from));
  };

  /**
   * A builder that has caught up hands its slots over to the main reader, once it has applied at least
   * what the main reader has read: from then on the main reader's batches keep them up to date. A new
   * generation becomes the live one in the same step.
   */
  const mergeIfCaughtUp = async (feed: Feed): Promise<void> => {
    if (!main || !builders.has(feed) || !feedCaughtUp(feed)) return;
    const mainRead = main.reader.readPosition ?? main.applied ?? -1;
    if ((feed.applied ?? -1) < mainRead) return;
    for (const slot of feed.slots) {
      if (slot.failed) continue;
      slot.position = Math.max(slot.position ?? -1, feed.applied ?? -1);
      if (building.get(slot.name) === slot) await swapIn(slot);
      main.slots.push(slot);
      live.set(slot.name, slot);
    }
    builders.delete(feed);
    void feed.reader.stop();
  };

  const swapIn = async (slot: ProjectionSlot): Promise<void> => {
    const doc = generations.get(slot.name)!;
    const retired = doc.live;
    await saveGenerations({ ...doc, live: slot.generation, next: null });
    routes.route(slot.name, slot.generation.generation);
    building.delete(slot.name);
    frozen.delete(slot.name);
    const old = live.get(slot.name);
    if (old && main) main.slots = main.slots.filter((candidate) => candidate !== old);
    log('info', 'Read model swapped to its new generation', { projection: slot.name, from: retired, to: slot.generation });
    const timer = setTimeout(() => void collect(), options.retiredGenerationGraceMs ?? 10_000);
    timer.unref();
    timers.push(timer);
  };

  const collect = async (): Promise<void> => {
    try {
      await collectOldGenerations(base, projections, generations);
    } catch (error) {
      log('warn', 'Old generations of read models could not be dropped; next time', { error: (error as Error).message });
    }
  };

  // ---- leases ----

  const adopt = async (projection: Projection): Promise<void> => {
    held.add(projection.name);
    if (!started) return;
    await serially(async () => {
      if (!held.has(projection.name) || stopping || live.has(projection.name) || building.has(projection.name)) return;
      generations = await readGenerations(base);
      const { live: slot, next } = await prepare(projection);
      // Behind the main reader: caught up by a reader of its own, then handed over.
      const catchUp = [slot, next].filter((candidate): candidate is ProjectionSlot => candidate !== undefined);
      if (next) building.set(projection.name, next);
      if (catchUp.length > 0) startBuilder(catchUp);
    });
  };

  const abandon = async (projection: Projection): Promise<void> => {
    held.delete(projection.name);
    // Stopping: the slots stay, to report where they stopped.
    if (stopping) return;
    await serially(async () => {
      live.delete(projection.name);
      building.delete(projection.name);
      if (main) main.slots = main.slots.filter((slot) => slot.name !== projection.name);
      for (const feed of builders) {
        feed.slots = feed.slots.filter((slot) => slot.name !== projection.name);
        if (feed.slots.length === 0) {
          builders.delete(feed);
          void feed.reader.stop();
        }
      }
    });
  };

  // ---- the registry, read again now and then ----

  const watchRegistry = async (): Promise<void> => {
    if (stopping) return;
    try {
      const read = await readGenerations(base);
      await serially(async () => {
        for (const feed of builders) await mergeIfCaughtUp(feed);
        generations = read;
        for (const projection of projections) {
          const doc = read.get(projection.name);
          if (!held.has(projection.name)) {
            // Another instance runs it: follow its swaps.
            routes.route(projection.name, doc?.live?.generation ?? null);
            continue;
          }
          if (doc?.rebuildRequestedAt && !building.has(projection.name) && doc.live) {
            const next = { generation: doc.last + 1, version: projection.version };
            await saveGenerations({ ...doc, next, last: next.generation });
            await clearRequest(projection.name, doc.rebuildRequestedAt);
            log('info', 'Rebuilding a read model beside the live one', { projection: projection.name, live: doc.live, next });
            const slot = await newSlot(projection, next);
            building.set(projection.name, slot);
            startBuilder([slot]);
          }
        }
      });
      await shared.refresh();
      sharedError = null;
    } catch (error) {
      sharedError = `checkpoint of the instance running it unreadable: ${(error as Error).message}`;
    }
  };

  // ---- read-your-writes ----

  /**
   * Every batch moves a slot to the batch's last event, whatever its type: once a batch reaches
   * `position`, the slot has applied everything up to it. Only when the write's last event is of a type
   * no projection reads does no batch reach it: then the slot has applied everything up to `position`
   * once its next event, if any, lies beyond it. The log is read for that only when the slot's reader
   * has nothing left to apply, after a first wait, once per position of the slot (waiters whose writes
   * came before a read share it): every read is a round trip to EventStoreDB, and one cancelled stream.
   */
  const reachedHere = async (slot: ProjectionSlot, position: number, signal: AbortSignal): Promise<boolean> => {
    const since = ++waits;
    let checked: number | undefined | null = null;
    let waited = false;
    while (!signal.aborted && !slot.failed && !stopping && live.get(slot.name) === slot) {
      const applied = slot.position;
      if (applied !== undefined && applied >= position) return true;
      if (waited && applied !== checked && feedIdle(slot)) {
        checked = applied;
        const next = await nextEventOf(slot, applied, since);
        if (next === undefined || next > position) return true;
        // The slot may have moved during the read, and told it to nobody yet waiting.
        if (slot.position !== applied) continue;
      }
      await new Promise<void>((resolve) => {
        const stop = slot.onChange(wake);
        const timer = setTimeout(wake, waited ? idleCheckMs : firstWaitMs);
        signal.addEventListener('abort', wake, { once: true });
        function wake(): void {
          stop();
          clearTimeout(timer);
          signal.removeEventListener('abort', wake);
          resolve();
        }
      });
      waited = true;
    }
    return false;
  };

  /** Counts the waits for read-your-writes: a look in the log serves the waits begun before it. */
  let waits = 0;
  const looks = new Map<ProjectionSlot, { applied: number | undefined; from: number; next: Promise<number | undefined> }>();

  /** The position of the slot's next event after `applied` in the log (undefined: none yet). */
  const nextEventOf = (slot: ProjectionSlot, applied: number | undefined, since: number): Promise<number | undefined> => {
    const look = looks.get(slot);
    if (look && look.applied === applied && look.from >= since) return look.next;
    const next = eventStore
      .readAll({ ...(applied === undefined ? {} : { fromPosition: applied }), filter: { eventTypes: slot.projection.eventTypes }, maxCount: 1 })
      .then(([event]) => event?.position);
    looks.set(slot, { applied, from: waits, next });
    next.catch(() => looks.delete(slot));
    return next;
  };

  /** The slot's reader has applied all it has read: if the slot has not reached a position yet, no batch will take it there. */
  const feedIdle = (slot: ProjectionSlot): boolean => {
    const feed = main?.slots.includes(slot) ? main : [...builders].find((candidate) => candidate.slots.includes(slot));
    return feed === undefined || (!feed.applying && feed.reader.queued === 0);
  };

  /**
   * Follows the projection wherever it runs while the wait lasts: a lease changing hands (this instance
   * taking it over from a dead one, or losing it) or a new generation swapped in moves the wait to
   * where the projection now is, rather than ending it.
   */
  const reached = async (projection: Projection, position: number, signal: AbortSignal): Promise<boolean> => {
    while (!signal.aborted && !stopping) {
      const slot = live.get(projection.name);
      if (slot) {
        if (await reachedHere(slot, position, signal)) return true;
        // Failed, timed out, or stopping: no use waiting on.
        if (slot.failed || live.get(projection.name) === slot) return false;
        continue;
      }
      // An older version served as it is while the new one is built: nothing here will change it.
      if (frozen.has(projection.name) && held.has(projection.name)) return true;
      // Ends when reached, or when the projection comes to run here.
      if (await shared.reached(projection, position, signal)) return true;
    }
    return false;
  };

  const waitFor = async (position: number, types: readonly string[]): Promise<boolean> => {
    const concerned = projections.filter((projection) => projection.eventTypes.some((type) => types.includes(type)));
    if (concerned.length === 0) return true;
    const abort = new AbortController();
    // One listener per projection concerned, each removed when its wait ends: more than Node's default
    // of 10 is expected here, not a leak.
    setMaxListeners(concerned.length + 1, abort.signal);
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    try {
      const results = await Promise.all(concerned.map(async (projection) => ({ projection, ok: await reached(projection, position, abort.signal) })));
      const lagging = results.filter((result) => !result.ok).map((result) => statusOf(result.projection));
      if (lagging.length === 0) return true;
      log('warn', 'Read models not up to date after a write; answering anyway', { position, types, timeoutMs, lagging });
      return false;
    } catch (error) {
      // The write is already recorded: a failure to observe the read models must not fail the command.
      log('warn', 'Could not wait for the read models after a write', { position, types, error: (error as Error).message });
      return false;
    } finally {
      clearTimeout(timer);
    }
  };

  // ---- status ----

  const statusOf = (projection: Projection): ProjectionStatus => {
    const doc = generations.get(projection.name);
    const slot = live.get(projection.name);
    const next = building.get(projection.name);
    const generation = doc?.live?.generation ?? null;
    // Built here, with its position; or by the instance holding the lease, as the registry says.
    const rebuilding = next
      ? { generation: next.generation.generation, version: next.generation.version, position: next.position ?? null }
      : doc?.next && { generation: doc.next.generation, version: doc.next.version, position: null };
    const common = { name: projection.name, version: projection.version, generation, ...(rebuilding && { rebuilding }) };
    if (slot) {
      const feedReady = main?.slots.includes(slot) ? ready : false;
      return { ...common, position: slot.position ?? null, caughtUp: feedReady, running: !slot.failed && !stopping, lastError: slot.lastError };
    }
    if (held.has(projection.name)) {
      return { ...common, position: null, caughtUp: frozen.has(projection.name), running: !stopping, lastError: null };
    }
    // Unreadable checkpoints mean an unreachable read store: this instance cannot serve fresh reads.
    return {
      ...common,
      position: shared.positionOf(projection.name) ?? null,
      caughtUp: sharedError === null,
      running: true,
      lastError: sharedError,
      elsewhere: true,
    };
  };

  const progress = (): CatchUpProgress => {
    const position = main?.applied ?? null;
    const known = Math.max(head, position ?? -1);
    const { eventsPerSecond, positionsPerSecond } = meter.rates(Date.now());
    const remaining = known - (position ?? -1);
    const etaSeconds = ready ? 0 : positionsPerSecond > 0 ? Math.ceil(remaining / positionsPerSecond) : null;
    return { ready, position, head: known, eventsPerSecond, etaSeconds };
  };

  const refreshHead = async (): Promise<void> => {
    try {
      head = await eventStore.headPosition();
    } catch {
      // The next refresh tries again; progress shows the last head known.
    }
  };

  /** A projection this process runs: its generation and the last batch that changed its documents. */
  const localContentVersion = (name: string): string | undefined => {
    const slot = live.get(name);
    return slot && `${slot.generation.generation}:${slot.lastChange ?? -1}`;
  };
  /** One another instance runs: its live generation and a stored checkpoint. */
  const storedContentVersion = (name: string, position: number | undefined): string | null => {
    const generation = generations.get(name)?.live?.generation;
    return generation === undefined || position === undefined ? null : `${generation}:${position}`;
  };

  return {
    async start() {
      if (started) return;
      await setupLeases(base);
      generations = await readGenerations(base);
      for (const projection of projections) routes.route(projection.name, generations.get(projection.name)?.live?.generation ?? null);
      await refreshHead();
      for (const projection of projections) {
        const holder = holdLease({
          store: base,
          projection: projection.name,
          owner: options.lease.owner,
          clock,
          ttlMs: options.lease.ttlMs,
          replaceDeadHolders: options.lease.replaceDeadHolders ?? false,
          onAcquired: () => {
            log('info', 'Projection lease taken: the projection runs in this instance', { projection: projection.name, owner: options.lease.owner });
            // Not awaited: renewals wait for this callback, and a catch-up may outlast the lease.
            void adopt(projection).catch((error: unknown) =>
              log('error', 'Projection could not start', { projection: projection.name, error: (error as Error).message }),
            );
          },
          onLost: async () => {
            // Released by stop(): nothing lost, and nothing to tell per projection.
            if (stopping) return;
            log('info', 'Projection lease lost: the projection stops in this instance', { projection: projection.name, owner: options.lease.owner });
            await abandon(projection);
          },
          onError: (error) => log('warn', 'Projection lease could not be taken or renewed', { projection: projection.name, error: (error as Error).message }),
        });
        holders.set(projection.name, holder);
      }
      await Promise.all([...holders.values()].map((holder) => holder.ready));

      // From here on, a lease taken (by a renewal) is adopted after this first set-up, in order.
      started = true;
      await serially(async () => {
        const mine = projections.filter((projection) => held.has(projection.name));
        const slots: ProjectionSlot[] = [];
        const next: ProjectionSlot[] = [];
        for (const projection of mine) {
          const prepared = await prepare(projection);
          if (prepared.live) slots.push(prepared.live);
          if (prepared.next) {
            next.push(prepared.next);
            building.set(projection.name, prepared.next);
          }
        }
        for (const slot of slots) live.set(slot.name, slot);
        // Nothing to apply: read from the head (a CLI beside a running server, say).
        const from = slots.length === 0 ? head : Math.min(...slots.map((slot) => slot.position ?? -1));
        log('info', 'Projections start reading the log', { from, head, projections: slots.map((slot) => slot.name) });
        main = openFeed('main', slots, from < 0 ? undefined : from);
        if (next.length > 0) startBuilder(next);
      });
      await collect();
      const poll = setInterval(() => void watchRegistry(), options.registryPollMs ?? 1000);
      poll.unref();
      timers.push(poll);
      const heads = setInterval(() => void (ready ? undefined : refreshHead()), 1000);
      heads.unref();
      timers.push(heads);

      // Resolves once caught up, or once the main reader has ended (stopped, or failed).
      await Promise.race([whenReady, main!.done]);
      await shared.refresh().catch((error: unknown) => {
        sharedError = `checkpoint of the instance running it unreadable: ${(error as Error).message}`;
      });
    },
    isReady: () => ready,
    progress,
    waitFor,
    appliedPosition: (name) => live.get(name)?.position ?? shared.positionOf(name) ?? null,
    currentPosition: async (name) => {
      const slot = live.get(name);
      if (slot && !options.sharedStore) return slot.position ?? null;
      const stored = await shared.readNow(name);
      // Read before the read: this process's position, if it runs the projection, is at least what it was then.
      const here = live.get(name)?.position;
      const known = [stored, here].filter((position): position is number => position !== undefined);
      return known.length === 0 ? null : Math.max(...known);
    },
    contentVersion: (name) => localContentVersion(name) ?? storedContentVersion(name, shared.positionOf(name)),
    currentContentVersion: async (name) => localContentVersion(name) ?? storedContentVersion(name, await shared.readNow(name)),
    async requestRebuild(names = projections.map((projection) => projection.name)) {
      for (const name of names) if (!byName.has(name)) throw new Error(`No projection is named ${name}`);
      await requestRebuild(base, names, clock.now());
      await watchRegistry();
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      for (const timer of timers) clearInterval(timer);
      const feeds = [...(main ? [main] : []), ...builders];
      await Promise.all(feeds.map((feed) => feed.reader.stop()));
      await Promise.all(feeds.map((feed) => feed.done));
      await exclusive;
      const slots = feeds.flatMap((feed) => feed.slots);
      // The checkpoints owed by projections that had nothing to write lately.
      const owed = slots
        .filter((slot) => !slot.failed)
        .map((slot) => slot.pendingCheckpoint())
        .filter((doc) => doc !== undefined);
      if (owed.length > 0) await base.writeDocuments([], { collection: checkpointsCollection, put: owed }).catch(() => undefined);
      // Released at once, so that another instance need not wait for the expiry.
      await Promise.all([...holders.values()].map((holder) => holder.stop()));
      holders.clear();
      for (const slot of slots) slot.notify();
      becomeReady();
    },
    status: () => projections.map(statusOf),
  };
};
