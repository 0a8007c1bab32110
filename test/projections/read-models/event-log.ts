import { randomUUID } from 'node:crypto';
import { encodeEvent, type DomainEvent, type StoredEvent } from '../../../src/events/registry.ts';
import type { Actor } from '../../../src/events/store/event-store.ts';

/**
 * Builds events as the store would deliver them: validated against the registry, with increasing
 * positions (with gaps, as the store's may have), per-stream revisions and metadata.
 */
export const eventLog = () => {
  const events: StoredEvent[] = [];
  const revisions = new Map<string, number>();
  let position = 0;

  /** The event as the store would give it back; its actor is the system unless told. */
  const record = <E extends DomainEvent>(streamName: string, event: E, actor: Actor = { kind: 'system' }): StoredEvent<E> => {
    const { data } = encodeEvent(event);
    const revision = (revisions.get(streamName) ?? -1) + 1;
    revisions.set(streamName, revision);
    position += 3;
    const stored = {
      ...event,
      data,
      id: randomUUID(),
      streamName,
      revision,
      position,
      recordedAt: '2025-03-20T10:00:00.000Z',
      metadata: {
        actor,
        correlationId: randomUUID(),
        causationId: randomUUID(),
        occurredAt: '2025-03-20T10:00:00.000Z',
        schemaVersion: 1,
      },
    } as unknown as StoredEvent<E>;
    events.push(stored);
    return stored;
  };

  return { events, record };
};

export type EventLog = ReturnType<typeof eventLog>;
