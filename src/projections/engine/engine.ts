import type { ProjectionEngineOptions, ProjectionStatus } from './engine-options.ts';
import { createEngine } from './engine-state.ts';
import { appliedPosition, contentVersion, currentContentVersion, currentPosition } from './freshness.ts';
import { start, stop } from './lifecycle.ts';
import type { CatchUpProgress } from './progress.ts';
import { waitFor } from './read-your-writes.ts';
import { requestRebuild } from './registry-watch.ts';
import { progress, statusOf } from './status.ts';

export type ProjectionEngine = {
  /** Takes the leases, sets the read models up and resolves once those run here have caught up with the log. */
  start(): Promise<void>;
  /** True once `start` has caught up. */
  isReady(): boolean;
  progress(): CatchUpProgress;
  /**
   * Read-your-writes: true once every projection (reading one of `types`, when given) has applied the
   * log up to `position`; false when one of them has stopped or the wait timed out.
   */
  waitFor(position: number, types?: readonly string[]): Promise<boolean>;
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
   * what an answer cached from its read model is checked against. Null when unknown. With `part`
   * (a projection divided into parts, Projection.changeKeyOf), the stamp changes only when documents
   * of that part may have changed.
   */
  contentVersion(name: string, part?: string): string | null;
  /**
   * The content version as of this call: when another instance (or process) runs the projection, with
   * its stored checkpoint read now rather than as last read, so that an answer kept from the read model
   * is never older than a command that has answered in any of them.
   */
  currentContentVersion(name: string, part?: string): Promise<string | null>;
  /** Builds the projections anew beside their live generations, here or in the instance holding their lease. */
  requestRebuild(names?: readonly string[]): Promise<void>;
  stop(): Promise<void>;
  status(): ProjectionStatus[];
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
  // Its parts share one state record (engine-state.ts): reading the log (feeds.ts), generations
  // (blue-green.ts), leases (leases.ts), the registry (registry-watch.ts), freshness (read-your-writes.ts,
  // freshness.ts, shared-checkpoints.ts), status (status.ts), and start and stop (lifecycle.ts).
  const engine = createEngine(options);
  return {
    start: () => start(engine),
    isReady: () => engine.state.ready,
    progress: () => progress(engine),
    waitFor: (position, types) => waitFor(engine, position, types),
    appliedPosition: (name) => appliedPosition(engine, name),
    currentPosition: (name) => currentPosition(engine, name),
    contentVersion: (name, part) => contentVersion(engine, name, part),
    currentContentVersion: (name, part) => currentContentVersion(engine, name, part),
    requestRebuild: (names) => requestRebuild(engine, names),
    stop: () => stop(engine),
    status: () => engine.config.projections.map((projection) => statusOf(engine, projection)),
  };
};
