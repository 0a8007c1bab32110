import type { EventStore } from '../events/store/event-store.ts';
import type { CheckpointPolicy } from './checkpoints.ts';
import type { Projection } from './projection.ts';
import type { ReadStore } from './read-store/read-store.ts';
import { ProjectionRunner, type ProjectionLog, type ProjectionStatus } from './runner.ts';

export type ProjectionEngineOptions = {
  eventStore: EventStore;
  readStore: ReadStore;
  projections: readonly Projection[];
  log?: ProjectionLog;
  /** How long a command waits for its read models before answering anyway. */
  readYourWritesTimeoutMs?: number;
  checkpointPolicy?: CheckpointPolicy;
};

export type ProjectionEngine = {
  /** Sets the projections up and resolves once each has caught up with the log as it is now (or stopped). */
  start(): Promise<void>;
  /**
   * Read-your-writes: true once every projection reading one of `types` has applied the log up to
   * `position`; false when one of them has stopped or the wait timed out (the write itself succeeded).
   */
  waitFor(position: number, types: readonly string[]): Promise<boolean>;
  stop(): Promise<void>;
  status(): ProjectionStatus[];
};

const stderrLog: ProjectionLog = (level, message, fields) => {
  if (level === 'warn' || level === 'error') console.error(JSON.stringify({ level, message, ...fields }));
};

export const createProjectionEngine = (options: ProjectionEngineOptions): ProjectionEngine => {
  const { eventStore, readStore, projections } = options;
  const log = options.log ?? stderrLog;
  const timeoutMs = options.readYourWritesTimeoutMs ?? 2000;
  const runners = projections.map(
    (projection) => new ProjectionRunner(projection, { eventStore, readStore, log, checkpointPolicy: options.checkpointPolicy }),
  );

  /**
   * A runner only sees the events of its types, so its own position may stay below `position` for
   * good (the append's last event is of another type). It has applied everything up to `position`
   * once its next event, if any, lies beyond it. Each check reads at most one event and is made only
   * when the runner has moved: no polling.
   */
  const reached = async (runner: ProjectionRunner, position: number, signal: AbortSignal): Promise<boolean> => {
    while (!signal.aborted) {
      const applied = runner.appliedPosition;
      if (applied !== undefined && applied >= position) return true;
      const [next] = await eventStore.readAll({
        ...(applied === undefined ? {} : { fromPosition: applied }),
        filter: { eventTypes: runner.projection.eventTypes },
        maxCount: 1,
      });
      if (next === undefined || next.position > position) return true;
      if (!(await runner.waitUntil(next.position, signal))) return false;
    }
    return false;
  };

  const waitFor = async (position: number, types: readonly string[]): Promise<boolean> => {
    const concerned = runners.filter((runner) => runner.projection.eventTypes.some((type) => types.includes(type)));
    if (concerned.length === 0) return true;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    try {
      const results = await Promise.all(
        concerned.map(async (runner) => ({ runner, ok: await reached(runner, position, abort.signal) })),
      );
      const lagging = results.filter((result) => !result.ok).map((result) => result.runner.status());
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

  return {
    async start() {
      for (const projection of projections) await projection.setup?.(readStore);
      await Promise.all(runners.map((runner) => runner.start()));
    },
    waitFor,
    async stop() {
      await Promise.all(runners.map((runner) => runner.stop()));
    },
    status: () => runners.map((runner) => runner.status()),
  };
};
