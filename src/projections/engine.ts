import { systemClock, type Clock } from '../events/command-context.ts';
import type { EventStore } from '../events/store/event-store.ts';
import type { CheckpointPolicy } from './checkpoints.ts';
import { holdLease, setupLeases, type LeaseHolder } from './projection-lease.ts';
import type { Projection } from './projection.ts';
import type { ReadStore } from './read-store/read-store.ts';
import { ProjectionRunner, type ProjectionLog, type ProjectionStatus } from './runner.ts';
import { followSharedCheckpoints } from './shared-checkpoints.ts';

export type ProjectionLeaseOptions = {
  /** This instance, unique among those sharing the read store. */
  owner: string;
  /** How long a lease lasts unrenewed: how long a projection may stay unrun after its instance died. */
  ttlMs: number;
  /** Real time by default: leases must expire even when the service runs on a frozen clock. */
  clock?: Clock;
};

export type ProjectionEngineOptions = {
  eventStore: EventStore;
  readStore: ReadStore;
  projections: readonly Projection[];
  log?: ProjectionLog;
  /** How long a command waits for its read models before answering anyway. */
  readYourWritesTimeoutMs?: number;
  checkpointPolicy?: CheckpointPolicy;
  /**
   * Set when several instances share the read store (MongoDB): each projection then runs in the one
   * instance holding its lease, the others follow its stored checkpoint. Unset: every projection runs here.
   */
  lease?: ProjectionLeaseOptions;
  /** How often `waitFor` reads the checkpoint of a projection another instance runs. */
  sharedCheckpointPollMs?: number;
};

export type ProjectionEngine = {
  /** Sets the projections up and resolves once each it runs has caught up with the log as it is now (or stopped). */
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

/** How often the checkpoints of the projections run elsewhere are read for `status()`. */
const sharedStatusRefreshMs = 500;

export const createProjectionEngine = (options: ProjectionEngineOptions): ProjectionEngine => {
  const { eventStore, readStore, projections, lease } = options;
  const log = options.log ?? stderrLog;
  const timeoutMs = options.readYourWritesTimeoutMs ?? 2000;
  const runners = projections.map(
    (projection) => new ProjectionRunner(projection, { eventStore, readStore, log, checkpointPolicy: options.checkpointPolicy }),
  );
  const holders = new Map<ProjectionRunner, LeaseHolder>();
  const shared = followSharedCheckpoints({
    eventStore,
    readStore,
    notRunHere: () => runners.filter((runner) => !runner.isRunning).map((runner) => runner.projection.name),
    pollMs: options.sharedCheckpointPollMs ?? 25,
  });
  let refreshTimer: NodeJS.Timeout | undefined;
  /** Why the checkpoints of the projections run elsewhere could not be read last time; null when they could. */
  let sharedError: string | null = null;
  const refreshShared = async (): Promise<void> => {
    try {
      await shared.refresh();
      sharedError = null;
    } catch (error) {
      sharedError = `checkpoint of the instance running it unreadable: ${(error as Error).message}`;
    }
  };

  const runsElsewhere = (runner: ProjectionRunner): boolean => {
    const holder = holders.get(runner);
    return holder !== undefined && !holder.held && !runner.isRunning;
  };

  /**
   * A runner only sees the events of its types, so its own position may stay below `position` for
   * good (the append's last event is of another type). It has applied everything up to `position`
   * once its next event, if any, lies beyond it. Each check reads at most one event and is made only
   * when the runner has moved.
   */
  const reachedHere = async (runner: ProjectionRunner, position: number, signal: AbortSignal): Promise<boolean> => {
    while (!signal.aborted) {
      const applied = runner.appliedPosition;
      if (applied !== undefined && applied >= position) return true;
      const [next] = await eventStore.readAll({
        ...(applied === undefined ? {} : { fromPosition: applied }),
        filter: { eventTypes: runner.projection.eventTypes },
        maxCount: 1,
      });
      if (next === undefined || next.position > position) return true;
      if (!(await runner.waitUntil(next.position, signal))) {
        // Without a lease a stopped runner is stopped for good; with one, another instance may go on.
        return lease && !signal.aborted ? shared.reached(runner.projection, position, signal) : false;
      }
    }
    return false;
  };

  const reached = (runner: ProjectionRunner, position: number, signal: AbortSignal): Promise<boolean> =>
    !lease || runner.isRunning ? reachedHere(runner, position, signal) : shared.reached(runner.projection, position, signal);

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

  /** Runs each projection while this instance holds its lease; resolves once each lease was tried and the won ones caught up. */
  const startLeased = async ({ owner, ttlMs, clock = systemClock }: ProjectionLeaseOptions): Promise<void> => {
    await setupLeases(readStore);
    let starting: Promise<void>[] | undefined = [];
    for (const runner of runners) {
      const projection = runner.projection.name;
      const holder = holdLease({
        store: readStore,
        projection,
        owner,
        clock,
        ttlMs,
        onAcquired: () => {
          log('info', 'Projection lease taken: the projection runs in this instance', { projection, owner });
          // Not awaited: renewals wait for this callback, and a catch-up may outlast the lease.
          const started = runner.start().catch((error: unknown) => log('error', 'Projection could not start', { projection, error: (error as Error).message }));
          starting?.push(started);
        },
        onLost: async () => {
          log('info', 'Projection lease lost: the projection stops in this instance', { projection, owner });
          await runner.stop();
        },
        onError: (error) => log('warn', 'Projection lease could not be taken or renewed', { projection, owner, error: (error as Error).message }),
      });
      holders.set(runner, holder);
    }
    await Promise.all([...holders.values()].map((holder) => holder.ready));
    await Promise.all(starting);
    starting = undefined;
    await refreshShared();
    refreshTimer = setInterval(() => void refreshShared(), sharedStatusRefreshMs);
    refreshTimer.unref();
  };

  return {
    async start() {
      for (const projection of projections) await projection.setup?.(readStore);
      if (lease) return startLeased(lease);
      await Promise.all(runners.map((runner) => runner.start()));
    },
    waitFor,
    async stop() {
      clearInterval(refreshTimer);
      // Released at once, so that another instance need not wait for the expiry.
      await Promise.all([...holders.values()].map((holder) => holder.stop()));
      holders.clear();
      await Promise.all(runners.map((runner) => runner.stop()));
    },
    status: () =>
      runners.map((runner): ProjectionStatus => {
        if (!runsElsewhere(runner)) return runner.status();
        const { name } = runner.projection;
        // Unreadable checkpoints mean an unreachable read store: this instance cannot serve fresh reads.
        return { name, position: shared.positionOf(name) ?? null, caughtUp: sharedError === null, running: true, lastError: sharedError, elsewhere: true };
      }),
  };
};
