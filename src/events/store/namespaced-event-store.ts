import { WrongExpectedVersionError, type EventFilter, type EventStore, type ReadAllOptions, type RecordedEvent, type Subscription } from './event-store.ts';

/**
 * One service's share of an event store that others use too (several environments on one EventStoreDB
 * cluster, or the API specifications on one real server): every stream is stored as
 * `<namespace>.<stream>`, and reads, subscriptions and the head see the streams of the namespace only,
 * under their own names. Positions stay the store's, so they have gaps where other namespaces wrote.
 *
 * The store filters on the stream prefix; a filter by event type is then applied here, since
 * EventStoreDB filters on one of the two only.
 */

const NAMESPACE = /^[A-Za-z0-9_]+$/;
/** Events read per request when a filter is applied here. */
const PAGE = 256;

export const isValidNamespace = (namespace: string): boolean => NAMESPACE.test(namespace);

export const namespacedEventStore = (inner: EventStore, namespace: string): EventStore => {
  if (!isValidNamespace(namespace)) throw new Error(`An event-store namespace is letters, digits and _ only, not ${JSON.stringify(namespace)}`);
  const prefix = `${namespace}.`;

  /** The store's filter for a filter of ours, and what is left to check here. */
  const split = (filter: EventFilter | undefined): { outer: EventFilter; types: ReadonlySet<string> | undefined } => {
    if (filter !== undefined && 'streamPrefixes' in filter) {
      return { outer: { streamPrefixes: filter.streamPrefixes.map((streamPrefix) => prefix + streamPrefix) }, types: undefined };
    }
    return { outer: { streamPrefixes: [prefix] }, types: filter && new Set(filter.eventTypes) };
  };
  const ours = (event: RecordedEvent): RecordedEvent => ({ ...event, streamName: event.streamName.slice(prefix.length) });

  const readAll = async (options: ReadAllOptions = {}): Promise<RecordedEvent[]> => {
    const { outer, types } = split(options.filter);
    const maxCount = options.maxCount ?? Infinity;
    if (types === undefined) return (await inner.readAll({ ...options, filter: outer })).map(ours);
    // Read page by page until `maxCount` events of the types are found or the log ends.
    const found: RecordedEvent[] = [];
    let cursor = options.fromPosition;
    while (found.length < maxCount) {
      const page = await inner.readAll({ ...options, ...(cursor === undefined ? {} : { fromPosition: cursor }), filter: outer, maxCount: PAGE });
      for (const event of page) if (found.length < maxCount && types.has(event.type)) found.push(ours(event));
      if (page.length < PAGE) break;
      cursor = page.at(-1)!.position;
    }
    return found;
  };

  return {
    appendToStream: (streamName, events, options) =>
      inner.appendToStream(prefix + streamName, events, options).catch((error: unknown) => {
        // The refusal names the stream as the caller does.
        if (error instanceof WrongExpectedVersionError) throw new WrongExpectedVersionError(streamName, error.expected, error.actual);
        throw error;
      }),
    readStream: async (streamName, options) => (await inner.readStream(prefix + streamName, options)).map(ours),
    readAll,
    subscribeToAll: (options = {}): Subscription => {
      const { outer, types } = split(options.filter);
      const subscription = inner.subscribeToAll({ ...options, filter: outer });
      const keep = (event: RecordedEvent) => types === undefined || types.has(event.type);
      return {
        caughtUp: subscription.caughtUp,
        unsubscribe: () => subscription.unsubscribe(),
        async *[Symbol.asyncIterator]() {
          for await (const event of subscription) if (keep(event)) yield ours(event);
        },
      };
    },
    headPosition: async () => (await inner.readAll({ direction: 'backwards', filter: { streamPrefixes: [prefix] }, maxCount: 1 })).at(0)?.position ?? -1,
    close: () => inner.close(),
  };
};
