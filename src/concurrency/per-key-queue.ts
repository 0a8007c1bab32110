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

/** One at a time, in arrival order: a task waits for those queued before it, whether they succeed or fail. */
export const oneAtATime = (): LimitFunction => pLimit(1);
