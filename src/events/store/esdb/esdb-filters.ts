import { eventTypeFilter, excludeSystemEvents, streamNameFilter, type Filter } from '@eventstore/db-client';
import type { EventFilter } from '../event-store.ts';

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type CheckpointReached = NonNullable<Filter['checkpointReached']>;

/**
 * The server-side filter of a subscription to `$all`. EventStoreDB filters on one thing only (the
 * event type or the stream name), so system events are kept out by the type filter where there is
 * one: the port's types become an anchored regex (a prefix filter would also let `OrderPlacedLate`
 * through for `OrderPlaced`), and no filter becomes "types not starting with `$`". A stream-prefix
 * filter cannot also exclude `$` types: what it lets through is dropped by the adapter.
 */
export function subscriptionFilter(filter: EventFilter | undefined, checkpointReached: CheckpointReached): Filter {
  if (filter === undefined) return excludeSystemEvents({ checkpointReached });
  if ('eventTypes' in filter) {
    return eventTypeFilter({ regex: `^(?:${filter.eventTypes.map(escapeRegex).join('|')})$`, checkpointReached });
  }
  return streamNameFilter({ prefixes: [...filter.streamPrefixes], checkpointReached });
}
