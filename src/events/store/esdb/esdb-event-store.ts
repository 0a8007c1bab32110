import { ANY, EventStoreDBClient, NO_STREAM, STREAM_EXISTS, type AppendExpectedRevision } from '@eventstore/db-client';
import {
  EventStoreUnavailableError,
  WrongExpectedVersionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
} from '../event-store.ts';
import { assertExpectedRevision, assertStreamName, validateNewEvents, validateReadAllOptions, validateReadStreamOptions } from '../event-store-validation.ts';
import { translateError } from './esdb-errors.ts';
import { toEventData } from './esdb-events.ts';
import { rawHead, readAllBackwards, readAllForwards, readStream } from './esdb-reads.ts';
import { EsdbSubscription } from './esdb-subscription.ts';

export type EsdbEventStoreOptions = {
  /** `esdb://`, `esdb+discover://`, or the same with `kurrentdb` (KurrentDB's new name for it). */
  url: string;
};

const toEsdbRevision = (expected: ExpectedRevision): AppendExpectedRevision => {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  return BigInt(expected);
};

const matchesExpected = (expected: ExpectedRevision, actual: number): boolean =>
  expected === 'any' || (expected === 'no_stream' ? actual < 0 : expected === 'stream_exists' ? actual >= 0 : expected === actual);

// This client only knows EventStoreDB's scheme; KurrentDB servers speak the same protocol.
const clientConnectionString = (url: string): string => url.replace(/^kurrentdb(\+discover)?:\/\//, 'esdb$1://');

/**
 * The EventStoreDB adapter of the event-store port, over `@eventstore/db-client`. Event ids, types,
 * data and metadata (the port's metadata is the event's JSON metadata) are EventStoreDB's own; the
 * port's position is the commit position. EventStoreDB's system events (`$` types and streams) are
 * never returned by `readAll`, `subscribeToAll` or `headPosition`.
 */
export function openEsdbEventStore(options: EsdbEventStoreOptions): EventStore {
  const client = EventStoreDBClient.connectionString(clientConnectionString(options.url));
  const subscriptions = new Set<EsdbSubscription>();
  const source = { client, rawHead: () => rawHead(client) };
  let closed = false;

  const call = async <T>(operation: () => Promise<T>, append?: { streamName: string; expected: ExpectedRevision }): Promise<T> => {
    if (closed) throw new EventStoreUnavailableError('The event store is closed');
    try {
      return await operation();
    } catch (error) {
      if (closed) throw new EventStoreUnavailableError('The event store is closed', { cause: error });
      throw translateError(error, append);
    }
  };

  const lastOf = async (streamName: string) => (await readStream(client, streamName, { direction: 'backwards', maxCount: 1 }))[0];

  /** An empty append writes nothing: its expected revision is checked against the stream as read. */
  const checkOnly = async (streamName: string, expected: ExpectedRevision): Promise<AppendResult> => {
    const last = await lastOf(streamName);
    const actual = last?.revision ?? -1;
    if (!matchesExpected(expected, actual)) throw new WrongExpectedVersionError(streamName, expected, last === undefined ? 'no_stream' : actual);
    return { nextExpectedRevision: actual, position: last?.position ?? -1 };
  };

  const append = async (streamName: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> => {
    const result = await client.appendToStream(streamName, events.map(toEventData), { expectedRevision: toEsdbRevision(expected) });
    const nextExpectedRevision = Number(result.nextExpectedRevision);
    if (result.position !== undefined) return { nextExpectedRevision, position: Number(result.position.commit) };
    // A server may answer an idempotent re-append without a position: read it from the stream.
    const [last] = await readStream(client, streamName, { fromRevision: nextExpectedRevision, maxCount: 1 });
    return { nextExpectedRevision, position: last?.position ?? -1 };
  };

  return {
    async appendToStream(streamName, events, appendOptions = {}) {
      const expected = appendOptions.expectedRevision ?? 'any';
      return call(
        async () => {
          assertStreamName(streamName);
          assertExpectedRevision(expected);
          validateNewEvents(events);
          return events.length === 0 ? checkOnly(streamName, expected) : append(streamName, events, expected);
        },
        { streamName, expected },
      );
    },

    async readStream(streamName, readOptions = {}) {
      return call(async () => {
        assertStreamName(streamName);
        validateReadStreamOptions(readOptions);
        return readStream(client, streamName, readOptions);
      });
    },

    async readAll(readOptions = {}) {
      return call(async () => {
        validateReadAllOptions(readOptions);
        return readOptions.direction === 'backwards' ? readAllBackwards(client, readOptions) : readAllForwards(source, readOptions);
      });
    },

    subscribeToAll(subscribeOptions = {}) {
      if (closed) throw new EventStoreUnavailableError('The event store is closed');
      validateReadAllOptions({ fromPosition: subscribeOptions.fromPosition, filter: subscribeOptions.filter });
      const subscription = new EsdbSubscription(source, {
        fromPosition: subscribeOptions.fromPosition ?? -1,
        filter: subscribeOptions.filter,
        reconnect: true,
        onEnd: (ended) => subscriptions.delete(ended),
      });
      subscriptions.add(subscription);
      return subscription;
    },

    async headPosition() {
      return call(async () => (await readAllBackwards(client, { maxCount: 1 }))[0]?.position ?? -1);
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const subscription of [...subscriptions]) subscription.stop();
      await client.dispose();
    },
  };
}
