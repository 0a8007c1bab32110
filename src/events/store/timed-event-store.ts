import { WrongExpectedVersionError, type EventStore } from './event-store.ts';

/** How an append ended: recorded, refused for its expected revision, or failed. */
export type AppendOutcome = 'ok' | 'conflict' | 'error';

export type AppendTiming = (seconds: number, outcome: AppendOutcome) => void;

/**
 * The event store with every append timed (the metrics' append-latency histogram); everything else is
 * the inner store's. A conflict is told apart from a failure: under contention it is expected, and
 * retried by the command handler.
 */
export const timedEventStore = (inner: EventStore, observe: AppendTiming): EventStore => ({
  appendToStream: async (streamName, events, options) => {
    const started = performance.now();
    try {
      const result = await inner.appendToStream(streamName, events, options);
      observe((performance.now() - started) / 1000, 'ok');
      return result;
    } catch (error) {
      observe((performance.now() - started) / 1000, error instanceof WrongExpectedVersionError ? 'conflict' : 'error');
      throw error;
    }
  },
  readStream: (streamName, options) => inner.readStream(streamName, options),
  readAll: (options) => inner.readAll(options),
  subscribeToAll: (options) => inner.subscribeToAll(options),
  headPosition: () => inner.headPosition(),
  close: () => inner.close(),
});
