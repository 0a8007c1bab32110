import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect } from 'vitest';
import {
  WrongExpectedVersionError,
  type EventStore,
  type JsonObject,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
} from '../../../../src/events/store/event-store.ts';

export type OpenEventStore = () => Promise<{ store: EventStore; cleanup: () => Promise<void> }>;

/** Opens a store before each test of the enclosing `describe` and cleans it up after; returns a getter. */
export function useStore(open: OpenEventStore): () => EventStore {
  let current: Awaited<ReturnType<OpenEventStore>> | undefined;
  beforeEach(async () => {
    current = await open();
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error('The store is opened by beforeEach');
    return current.store;
  };
}

export const newEvent = (type = 'ThingHappened', data: JsonObject = {}): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: {
    actor: { kind: 'system' },
    correlationId: randomUUID(),
    causationId: randomUUID(),
    occurredAt: new Date().toISOString(),
  },
});

export const newEvents = (count: number, type?: string): NewEvent[] => Array.from({ length: count }, (_, index) => newEvent(type, { index }));

/** A category no other test uses: the log may be shared with other tests (or other clients). */
export const uniqueCategory = (): string => `test${randomUUID().replaceAll('-', '')}`;

export const uniqueStream = (category = uniqueCategory()): string => `${category}-${randomUUID()}`;

export async function expectWrongVersion(append: Promise<unknown>, actual: number | 'no_stream'): Promise<void> {
  const error: unknown = await append.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(WrongExpectedVersionError);
  expect((error as WrongExpectedVersionError).actual).toBe(actual);
}

/**
 * Iterates a subscription until `count` events passing `keep` have arrived, then unsubscribes.
 * Fails instead of hanging when they do not arrive in time.
 */
export async function collect(
  subscription: Subscription,
  count: number,
  keep: (event: RecordedEvent) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<RecordedEvent[]> {
  const received: RecordedEvent[] = [];
  const timer = setTimeout(() => void subscription.unsubscribe(), timeoutMs);
  try {
    for await (const event of subscription) {
      if (keep(event)) received.push(event);
      if (received.length >= count) break;
    }
  } finally {
    clearTimeout(timer);
    await subscription.unsubscribe();
  }
  if (received.length < count) throw new Error(`Received ${received.length} of ${count} events before the timeout`);
  return received;
}

export const ids = (events: readonly { id: string }[]): string[] => events.map((e) => e.id);

export const positionsStrictlyIncrease = (events: readonly RecordedEvent[]): boolean =>
  events.every((event, index) => index === 0 || event.position > (events[index - 1]?.position ?? Infinity));
