/**
 * Runs tasks one at a time per key, in arrival order, within this process: two requests for the same
 * missing label wait for each other instead of both rendering and racing to record one.
 */
export type PerKeyQueue = <T>(key: string, task: () => Promise<T>) => Promise<T>;

export const createPerKeyQueue = (): PerKeyQueue => {
  const tails = new Map<string, Promise<unknown>>();
  return (key, task) => {
    const previous = tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    tails.set(key, tail);
    // Forget the key once its last task is done, so that the map does not grow with every label ever served.
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return result;
  };
};
