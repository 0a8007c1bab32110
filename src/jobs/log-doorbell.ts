import type { EventStore, Subscription } from '../events/store/event-store.ts';

/**
 * Tells the loops of a job, at once, that the log has grown by an event of the types they follow: a
 * live subscription from the log's head, read by nobody but this doorbell. A loop that has caught up
 * waits for an event after its own position, or `fallbackMs` at most (the doorbell is a shortcut, not
 * the source: the loop reads the log itself, from its checkpoint).
 */
export type LogDoorbell = {
  /** Resolves once an event after `position` was appended, after `fallbackMs`, or when `signal` aborts. */
  eventAfter(position: number, fallbackMs: number, signal: AbortSignal): Promise<void>;
  stop(): Promise<void>;
};

export const ringOnAppend = async (eventStore: EventStore, eventTypes: readonly string[]): Promise<LogDoorbell> => {
  // The last followed event seen appended since the doorbell was made (an event of another type, or
  // one appended before, rings nothing: a loop reading the log finds those itself).
  let last = -1;
  const waiting = new Set<{ after: number; ring: () => void }>();
  const head = await eventStore.headPosition();
  const subscription: Subscription = eventStore.subscribeToAll({ ...(head >= 0 && { fromPosition: head }), filter: { eventTypes } });
  const listening = (async () => {
    for await (const event of subscription) {
      last = event.position;
      for (const waiter of waiting) if (last > waiter.after) waiter.ring();
    }
  })().catch(() => undefined); // An ended subscription leaves the loops to their fallback.

  return {
    eventAfter: (position, fallbackMs, signal) =>
      new Promise<void>((resolve) => {
        if (last > position || signal.aborted) return resolve();
        const waiter = { after: position, ring: () => done() };
        const timer = setTimeout(() => done(), fallbackMs);
        function done() {
          clearTimeout(timer);
          waiting.delete(waiter);
          signal.removeEventListener('abort', done);
          resolve();
        }
        waiting.add(waiter);
        signal.addEventListener('abort', done, { once: true });
      }),
    stop: async () => {
      await subscription.unsubscribe();
      await listening;
      for (const waiter of waiting) waiter.ring();
    },
  };
};
