import type { EventFilter, EventStore, RecordedEvent } from '../../events/store/event-store.ts';

/** One page of the global log, strictly after a position, of the given types and/or stream prefix. */
export type FeedQuery = { after?: number; types?: readonly string[]; streamPrefix?: string; first: number };
export type FeedPage = { events: RecordedEvent[]; hasNextPage: boolean };

/**
 * The store filters by types or by stream prefix, not both: with both, it filters the types and the
 * prefix is checked here, reading on until the page is full or the log ends. One event more than the
 * page is looked for, to tell whether another page follows.
 */
export const readFeed = async (store: EventStore, query: FeedQuery): Promise<FeedPage> => {
  const filter: EventFilter | undefined = query.types
    ? { eventTypes: query.types }
    : query.streamPrefix !== undefined
      ? { streamPrefixes: [query.streamPrefix] }
      : undefined;
  const keep = (event: RecordedEvent): boolean =>
    query.types === undefined || query.streamPrefix === undefined || event.streamName.startsWith(query.streamPrefix);
  const wanted = query.first + 1;
  const found: RecordedEvent[] = [];
  let from = query.after;
  for (;;) {
    const batch = await store.readAll({ ...(from !== undefined && { fromPosition: from }), maxCount: wanted, ...(filter && { filter }) });
    found.push(...batch.filter(keep));
    const last = batch.at(-1);
    if (found.length >= wanted || batch.length < wanted || !last) break;
    from = last.position;
  }
  return { events: found.slice(0, query.first), hasNextPage: found.length > query.first };
};
