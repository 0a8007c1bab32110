import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore } from '../../events/store/event-store.ts';
import { checkpointsCollection, type Checkpoint } from '../checkpoints.ts';
import type { Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';

/**
 * How an instance follows the projections another instance runs on the shared read store: through
 * the stored checkpoints of their live generations, which are written with every batch that changes them. While some write waits for one of
 * them, one poll refreshes every such checkpoint each `pollMs`, however many writes wait: the load on
 * the read store stays one query per period.
 */
export type SharedCheckpoints = {
  /** The stored checkpoint as last read; undefined before the first read, or when none is stored. */
  positionOf(name: string): number | undefined;
  /** Reads the checkpoints of the projections not run here, in one query. */
  refresh(): Promise<void>;
  /**
   * True once the projection has applied the log up to `position`; false if `signal` aborts first, or
   * once the projection runs here (its lease taken over by this instance): the caller waits on it here.
   */
  reached(projection: Projection, position: number, signal: AbortSignal): Promise<boolean>;
  /**
   * The stored checkpoint of a projection's live generation, read after this call began: callers
   * arriving while a read is under way share the next one, so a burst of requests costs two reads.
   */
  readNow(name: string): Promise<number | undefined>;
};

export const followSharedCheckpoints = (options: {
  eventStore: EventStore;
  readStore: ReadStore;
  /** The projections this instance does not run at the moment. */
  notRunHere: () => string[];
  /** The checkpoint of a projection's live generation; undefined while it has none. */
  checkpointOf: (projection: string) => string | undefined;
  pollMs: number;
}): SharedCheckpoints => {
  const { eventStore, readStore, pollMs } = options;
  const positions = new Map<string, number>();
  const refreshed = new Set<() => void>();
  let watchers = 0;

  const refresh = async (): Promise<void> => {
    const byCheckpoint = new Map(
      options
        .notRunHere()
        .map((name) => [options.checkpointOf(name), name] as const)
        .filter((entry): entry is [string, string] => entry[0] !== undefined),
    );
    if (byCheckpoint.size === 0) return;
    const found = await readStore
      .collection<Checkpoint>(checkpointsCollection)
      .find({ _id: { $in: [...byCheckpoint.keys()] } })
      .toArray();
    for (const checkpoint of found) positions.set(byCheckpoint.get(checkpoint._id)!, checkpoint.position);
  };

  const poll = async (): Promise<void> => {
    while (watchers > 0) {
      await refresh().catch(() => undefined);
      for (const wake of [...refreshed]) wake();
      await sleep(pollMs);
    }
  };

  const nextRefresh = (signal: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      const wake = () => {
        refreshed.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      refreshed.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });

  /** A projection sees only its event types: it is up to `position` once its next event, if any, lies beyond. */
  const nothingUpTo = async (projection: Projection, applied: number | undefined, position: number): Promise<boolean> => {
    const [next] = await eventStore.readAll({
      ...(applied === undefined ? {} : { fromPosition: applied }),
      filter: { eventTypes: projection.eventTypes },
      maxCount: 1,
    });
    return next === undefined || next.position > position;
  };

  const reached = async (projection: Projection, position: number, signal: AbortSignal): Promise<boolean> => {
    watchers += 1;
    if (watchers === 1) void poll();
    try {
      let checked: number | undefined | null = null;
      while (!signal.aborted && options.notRunHere().includes(projection.name)) {
        const applied = positions.get(projection.name);
        if (applied !== undefined && applied >= position) return true;
        // The next event only needs reading again once the checkpoint has moved.
        if (applied !== checked) {
          checked = applied;
          if (await nothingUpTo(projection, applied, position)) return true;
        }
        await nextRefresh(signal);
      }
      return false;
    } finally {
      watchers -= 1;
    }
  };

  const readsNow = new Map<string, { running?: Promise<number | undefined>; queued?: Promise<number | undefined> }>();

  const readNow = (name: string): Promise<number | undefined> => {
    const id = options.checkpointOf(name);
    if (id === undefined) return Promise.resolve(undefined);
    let reads = readsNow.get(id);
    if (!reads) readsNow.set(id, (reads = {}));
    const state = reads;
    if (state.running) {
      // A read begun before this call may miss a checkpoint written just before it: wait for the next one.
      state.queued ??= state.running
        .catch(() => undefined)
        .then(() => {
          state.queued = undefined;
          return readNow(name);
        });
      return state.queued;
    }
    const read = readStore
      .collection<Checkpoint>(checkpointsCollection)
      .findOne({ _id: id })
      .then((found) => {
        const position = found?.position;
        // Followed from another instance: what it has applied is at least this now.
        if (position !== undefined && options.notRunHere().includes(name) && (positions.get(name) ?? -1) < position) positions.set(name, position);
        return position;
      });
    state.running = read;
    const done = () => {
      if (state.running === read) state.running = undefined;
      if (!state.running && !state.queued && readsNow.get(id) === state) readsNow.delete(id);
    };
    read.then(done, done);
    return read;
  };

  return { positionOf: (name) => positions.get(name), refresh, reached, readNow };
};
