import { BACKWARDS, END, FORWARDS, START, StreamNotFoundError, type EventStoreDBClient } from '@eventstore/db-client';
import type { ReadAllOptions, ReadStreamOptions, RecordedEvent } from '../event-store.ts';
import { esdbPosition, isSystemEvent, matchesFilter, toRecordedEvent } from './esdb-events.ts';
import { EsdbSubscription, type SubscriptionSource } from './esdb-subscription.ts';

const PAGE = 256;

export async function readStream(client: EventStoreDBClient, streamName: string, options: ReadStreamOptions): Promise<RecordedEvent[]> {
  const backwards = options.direction === 'backwards';
  const fromRevision = options.fromRevision === undefined ? (backwards ? END : START) : BigInt(options.fromRevision);
  const events: RecordedEvent[] = [];
  try {
    const read = client.readStream(streamName, {
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision,
      ...(options.maxCount !== undefined && { maxCount: options.maxCount }),
    });
    for await (const resolved of read) {
      const event = toRecordedEvent(resolved);
      if (event !== undefined) events.push(event);
    }
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
  return events;
}

/**
 * One backwards page of `$all`, unfiltered. EventStoreDB reads backwards strictly before the given
 * position; events at or after it are dropped all the same, so that paging cannot repeat one.
 */
async function pageBackwards(client: EventStoreDBClient, before: number | undefined, size: number) {
  const read = client.readAll({ direction: BACKWARDS, fromPosition: before === undefined ? END : esdbPosition(before), maxCount: size });
  const page: { position: number; event: RecordedEvent | undefined }[] = [];
  for await (const resolved of read) {
    const commit = resolved.event?.position?.commit ?? resolved.commitPosition;
    if (commit === undefined) continue;
    const position = Number(commit);
    if (before === undefined || position < before) page.push({ position, event: toRecordedEvent(resolved) });
  }
  return page;
}

/** The position of the last record of the log, system events included (-1 when empty). */
export async function rawHead(client: EventStoreDBClient): Promise<number> {
  const [last] = await pageBackwards(client, undefined, 1);
  return last?.position ?? -1;
}

/**
 * Backwards reads of `$all`: the client of this EventStoreDB version sends no filter on reads, so the
 * port's filter and the exclusion of system events are applied here, page by page.
 */
export async function readAllBackwards(client: EventStoreDBClient, options: ReadAllOptions): Promise<RecordedEvent[]> {
  const maxCount = options.maxCount ?? Infinity;
  const found: RecordedEvent[] = [];
  let before = options.fromPosition;
  while (found.length < maxCount) {
    const page = await pageBackwards(client, before, PAGE);
    for (const { event } of page) {
      if (event !== undefined && !isSystemEvent(event) && matchesFilter(options.filter, event) && found.length < maxCount) found.push(event);
    }
    if (page.length < PAGE) break;
    before = page.at(-1)?.position;
  }
  return found;
}

/**
 * Forwards reads of `$all` go through a filtered subscription, which filters on the server (the
 * client's plain read of `$all` cannot): it starts strictly after `fromPosition`, as the port wants,
 * and the read ends at `maxCount` events or when the subscription has caught up with the head.
 */
export async function readAllForwards(source: SubscriptionSource, options: ReadAllOptions): Promise<RecordedEvent[]> {
  const maxCount = options.maxCount ?? Infinity;
  const subscription = new EsdbSubscription(source, { fromPosition: options.fromPosition ?? -1, filter: options.filter, reconnect: false });
  const iterator = subscription[Symbol.asyncIterator]();
  const caughtUp = subscription.caughtUp.then(() => 'caught-up' as const);
  const found: RecordedEvent[] = [];
  try {
    while (found.length < maxCount) {
      const next = await Promise.race([iterator.next(), caughtUp]);
      if (next === 'caught-up' || next.done === true) break;
      found.push(next.value);
    }
  } finally {
    await subscription.unsubscribe();
  }
  return found;
}
