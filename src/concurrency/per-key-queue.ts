import pLimit, { type LimitFunction } from 'p-limit';

/**
 * Runs tasks one at a time per key, in arrival order, within this process (p-limit, one runner per
 * key): two requests for the same missing label wait for each other instead of both rendering and
 * racing to record one; the IDs of one sequence are handed out in the order they were asked for.
 */
export type PerKeyQueue = <T>(key: string, task: () => Promise<T>) => Promise<T>;

export const createPerKeyQueue = (): PerKeyQueue => {
  const queues = new Map<string, LimitFunction>();
  return async (key, task) => {
    let queue = queues.get(key);
    if (!queue) {
      queue = pLimit(1);
      queues.set(key, queue);
    }
    try {
      return await queue(task);
    } finally {
      // Forget the key once its last task is done, so that the map does not grow with every key ever seen.
      if (queue.activeCount === 0 && queue.pendingCount === 0 && queues.get(key) === queue) queues.delete(key);
    }
  };
};

/** Runs tasks one at a time, in arrival order. */
export type Serial = <T>(task: () => Promise<T>) => Promise<T>;

const ignore = (): void => undefined;

/**
 * One at a time, in arrival order: a task waits for those queued before it, whether they succeed or
 * fail, and starts on a later microtask even when none is. A chain of promises rather than p-limit: a
 * projection's batch store queues every write of a rebuild through one (two promises a task here,
 * twice as many and as many microtask turns there).
 */
export const oneAtATime = (): Serial => {
  let last: Promise<void> = Promise.resolve();
  return (task) => {
    const result = last.then(task);
    last = result.then(ignore, ignore);
    return result;
  };
};
