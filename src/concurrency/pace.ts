import { setTimeout as wait } from 'node:timers/promises';

/**
 * A pace for background work done in batches: at most `perSecond` items a second on average, over
 * everyone reserving from it. A batch of n items waits its turn, then holds the pace for n / perSecond
 * seconds: turns are given in the order they were asked for, and an idle pace lets the next batch go
 * at once (no credit saved up beyond that). On the thread that also answers the API, the work of a
 * backlog is thus spread out rather than taking every turn it can.
 */
export type Pace = {
  /** Waits for the turn of a batch of `items` (less when `signal` aborts), and counts them as done at that pace. */
  reserve: (items: number, signal?: AbortSignal) => Promise<void>;
};

export type PaceClock = { now: () => number; sleep: (ms: number, signal?: AbortSignal) => Promise<void> };

const realClock: PaceClock = {
  now: () => performance.now(),
  sleep: (ms, signal) => wait(ms, undefined, { signal }).catch(() => undefined),
};

/** A pace of `perSecond` items a second; none at all (every batch at once) when it is not finite. */
export const createPace = (perSecond: number, clock: PaceClock = realClock): Pace => {
  if (!Number.isFinite(perSecond)) return { reserve: async () => undefined };
  if (!(perSecond > 0)) throw new RangeError(`A pace needs a positive rate, not ${perSecond}`);
  let freeAt = Number.NEGATIVE_INFINITY;
  return {
    reserve: async (items, signal) => {
      const now = clock.now();
      const turn = Math.max(now, freeAt);
      freeAt = turn + (items * 1000) / perSecond;
      if (turn > now) await clock.sleep(turn - now, signal);
    },
  };
};
