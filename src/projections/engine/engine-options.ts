import type { Clock } from '../../events/command-context.ts';
import type { EventStore } from '../../events/store/event-store.ts';
import type { Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import type { RoutedReadStore } from './generations.ts';

/** What the projection engine (engine.ts) is given, and what it reports of each projection. */

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
