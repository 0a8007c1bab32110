import { setMaxListeners } from 'node:events';
import { systemClock, type Clock } from '../../events/command-context.ts';
import type { EventStore } from '../../events/store/event-store.ts';
import type { Projection } from '../projection.ts';
import type { LeaseHolder } from '../projection-lease.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import type { ProjectionEngineOptions, ProjectionLog } from './engine-options.ts';
import { checkpointName } from './generations.ts';
import { followSharedCheckpoints, type SharedCheckpoints } from './shared-checkpoints.ts';
import type { GenerationsDocument, RoutedReadStore } from './generations.ts';
import type { LogReader } from './log-reader.ts';
import { ProgressMeter } from './progress.ts';
import type { ProjectionSlot } from './projection-slot.ts';
import { oneAtATime, type Serial } from '../../concurrency/per-key-queue.ts';

/** The engine as each of its parts sees it: what it was given, what they share and change, and the other instances' positions. */
export type Engine = {
  readonly config: EngineConfig;
  readonly state: EngineState;
  /** The positions of the projections run by other instances, read from their stored checkpoints. */
  readonly shared: SharedCheckpoints;
};

/** The options with their defaults: read by every part, changed by none. */
export type EngineConfig = {
  eventStore: EventStore;
  /** The store the projections write to. */
  base: ReadStore;
  /** The same store as the queries see it: the engine points it at each projection's live generation. */
  routes: RoutedReadStore;
  projections: readonly Projection[];
  byName: ReadonlyMap<string, Projection>;
  /** Every event type some projection reads: what the readers of the log subscribe to. */
  allTypes: readonly string[];
  log: ProjectionLog;
  clock: Clock;
  lease: { owner: string; ttlMs: number; replaceDeadHolders: boolean };
  readYourWritesTimeoutMs: number;
  maxBatch: number;
  registryPollMs: number;
  sharedCheckpointPollMs: number;
  retiredGenerationGraceMs: number;
  sharedStore: boolean;
};

/** A reader and the slots it feeds: the main one keeps the live generations up to date; others build or catch up. */
export type Feed = {
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

/** Everything the parts of the engine share and change, in one place. */
export type EngineState = {
  // The slots and the readers feeding them.
  live: Map<string, ProjectionSlot>;
  building: Map<string, ProjectionSlot>;
  /** The projections whose live generation belongs to an older version: served as they are, not updated here. */
  frozen: Set<string>;
  main: Feed | undefined;
  builders: Set<Feed>;
  /** Batches and changes to the set of slots run one at a time (see `serially`): the tail of that queue. */
  exclusive: Serial;

  // The registry of generations, as last read or written here.
  generations: Map<string, GenerationsDocument>;

  // Leases: the projections run here.
  holders: Map<string, LeaseHolder>;
  held: Set<string>;

  // The engine's life.
  started: boolean;
  ready: boolean;
  /**
   * Whether the projections other instances ran when this one started have applied the log up to the
   * head it saw then: until they have, this instance is not ready, as its own catch-up would not be.
   */
  othersAtHead: boolean;
  becomeReady: () => void;
  whenReady: Promise<void>;
  timers: NodeJS.Timeout[];
  /** Aborted when stop() begins: the engine is stopping, and what waits on other instances stops waiting. */
  stopped: AbortController;

  // Progress while catching up.
  /** The last position of the log, as last read. */
  head: number;
  meter: ProgressMeter;
  lastProgressLog: number;

  // Freshness.
  /** Why the checkpoints of the projections run elsewhere could not be read last time; null when they could. */
  sharedError: string | null;
  /** Counts the waits for read-your-writes: a look in the log serves the waits begun before it. */
  waits: number;
  looks: Map<ProjectionSlot, { applied: number | undefined; from: number; next: Promise<number | undefined> }>;
};

const stderrLog: ProjectionLog = (level, message, fields) => {
  if (level === 'warn' || level === 'error') console.error(JSON.stringify({ level, message, ...fields }));
};

export const createEngine = (options: ProjectionEngineOptions): Engine => {
  const { projections } = options;
  const config: EngineConfig = {
    eventStore: options.eventStore,
    base: options.readStore,
    routes: options.routes,
    projections,
    byName: new Map(projections.map((projection) => [projection.name, projection])),
    allTypes: [...new Set(projections.flatMap((projection) => projection.eventTypes))],
    log: options.log ?? stderrLog,
    clock: options.lease.clock ?? systemClock,
    lease: { owner: options.lease.owner, ttlMs: options.lease.ttlMs, replaceDeadHolders: options.lease.replaceDeadHolders ?? false },
    readYourWritesTimeoutMs: options.readYourWritesTimeoutMs ?? 2000,
    maxBatch: options.maxBatch ?? 2000,
    registryPollMs: options.registryPollMs ?? 1000,
    sharedCheckpointPollMs: options.sharedCheckpointPollMs ?? 25,
    retiredGenerationGraceMs: options.retiredGenerationGraceMs ?? 10_000,
    sharedStore: options.sharedStore ?? false,
  };
  let becomeReady: () => void = () => undefined;
  const whenReady = new Promise<void>((resolve) => (becomeReady = resolve));
  // At start, each projection another instance runs is awaited on this signal (lifecycle.ts, a
  // listener or two each, removed once it has come): with every one run elsewhere (a command beside
  // the server), more than the 10 after which Node warns of a leak.
  const stopped = new AbortController();
  setMaxListeners(2 * config.projections.length + 10, stopped.signal);
  const state: EngineState = {
    live: new Map(),
    building: new Map(),
    frozen: new Set(),
    main: undefined,
    builders: new Set(),
    exclusive: oneAtATime(),
    generations: new Map(),
    holders: new Map(),
    held: new Set(),
    started: false,
    ready: false,
    othersAtHead: true,
    becomeReady,
    whenReady,
    timers: [],
    stopped,
    head: -1,
    meter: new ProgressMeter(),
    lastProgressLog: 0,
    sharedError: null,
    waits: 0,
    looks: new Map(),
  };
  return { config, state, shared: followElsewhere(config, state) };
};

/** Runs `work` after every batch or change to the set of slots queued before it. */
export const serially = <T>(state: EngineState, work: () => Promise<T>): Promise<T> => state.exclusive(work);

/** Follows the stored checkpoints of the live generations of the projections not run here. */
const followElsewhere = (config: EngineConfig, state: EngineState): SharedCheckpoints =>
  followSharedCheckpoints({
    eventStore: config.eventStore,
    readStore: config.base,
    checkpointOf: (name) => {
      const generation = state.generations.get(name)?.live?.generation;
      return generation === undefined ? undefined : checkpointName(name, generation);
    },
    notRunHere: () => config.projections.map((projection) => projection.name).filter((name) => !state.live.has(name)),
    pollMs: config.sharedCheckpointPollMs,
  });
