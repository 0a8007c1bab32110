import type { EventFilter, EventStore, RecordedEvent } from '../../events/store/event-store.ts';

/**
 * One page of the global log, strictly after a position, of the given types and/or stream prefix, and
 * recorded from `from` (inclusive) until `to` (exclusive), ISO instants.
 */
export type FeedQuery = { after?: number; types?: readonly string[]; streamPrefix?: string; from?: string; to?: string; first: number };
export type FeedPage = { events: RecordedEvent[]; hasNextPage: boolean };

/**
 * The store filters by types or by stream prefix, not both: with both, it filters the types and the
 * prefix is checked here, reading on until the page is full or the log ends. One event more than the
 * page is looked for, to tell whether another page follows. A period starts where the log reaches its
 * first instant (found by halving, a few dozen single reads whatever the log's length: events are
 * recorded in log order) and the page ends at the first event recorded after it.
 */
export const readFeed = async (store: EventStore, query: FeedQuery): Promise<FeedPage> => {
  const filter: EventFilter | undefined = query.types
    ? { eventTypes: query.types }
    : query.streamPrefix !== undefined
      ? { streamPrefixes: [query.streamPrefix] }
      : undefined;
  const since = query.from === undefined ? undefined : Date.parse(query.from);
  const keep = (event: RecordedEvent): boolean =>
    (query.types === undefined || query.streamPrefix === undefined || event.streamName.startsWith(query.streamPrefix)) &&
    (since === undefined || Date.parse(event.recordedAt) >= since);
  const ended = (event: RecordedEvent): boolean => query.to !== undefined && Date.parse(event.recordedAt) >= Date.parse(query.to);
  const wanted = query.first + 1;
  const found: RecordedEvent[] = [];
  let from = query.from === undefined ? query.after : await lastBefore(store, query.from, query.after);
  for (;;) {
    const batch = await store.readAll({ ...(from !== undefined && { fromPosition: from }), maxCount: wanted, ...(filter && { filter }) });
    const end = batch.findIndex(ended);
    found.push(...(end === -1 ? batch : batch.slice(0, end)).filter(keep));
    const last = batch.at(-1);
    if (end !== -1 || found.length >= wanted || batch.length < wanted || !last) break;
    from = last.position;
  }
  return { events: found.slice(0, query.first), hasNextPage: found.length > query.first };
};

/** The position after which the log's events are recorded at or after `instant` (and after `after`). */
const lastBefore = async (store: EventStore, instant: string, after: number | undefined): Promise<number | undefined> => {
  const at = Date.parse(instant);
  const firstAfter = async (position: number | undefined) =>
    (await store.readAll({ ...(position !== undefined && { fromPosition: position }), maxCount: 1 }))[0];
  const first = await firstAfter(after);
  if (!first || Date.parse(first.recordedAt) >= at) return after;
  // Every event up to `low` was recorded before the instant; the first event after `high`, if any, is
  // not (one at `high` itself may be: the page leaves out what was recorded before the period).
  let low = first.position;
  let high = await store.headPosition();
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const event = await firstAfter(middle);
    if (event && Date.parse(event.recordedAt) < at) low = event.position;
    else high = middle;
  }
  return low;
};
