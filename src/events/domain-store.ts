import { randomUUID } from 'node:crypto';
import { decodeEvent, encodeEvent, type DomainEvent, type StoredEvent } from './registry.ts';
import type { CommandContext } from './command-context.ts';
import { nextRank, requestEventId } from './idempotency/idempotent-request.ts';
import type { AppendResult, EventStore, ExpectedRevision, NewEvent } from './store/event-store.ts';

/** Reads and writes domain events through the port, validating them against the registry both ways. */

export type StreamState<E extends DomainEvent> = {
  events: StoredEvent<E>[];
  /** The stream's last revision, or 'no_stream' when it has no event yet. */
  revision: number | 'no_stream';
};

export const readDomainStream = async <E extends DomainEvent>(store: EventStore, streamName: string): Promise<StreamState<E>> => {
  const recorded = await store.readStream(streamName);
  const last = recorded.at(-1);
  return { events: recorded.map(decodeEvent) as StoredEvent<E>[], revision: last ? last.revision : 'no_stream' };
};

/** A stream's last event, decoded, read alone (however long the stream); undefined when it has none. */
export const readLastDomainEvent = async <E extends DomainEvent>(store: EventStore, streamName: string): Promise<StoredEvent<E> | undefined> => {
  const [last] = await store.readStream(streamName, { direction: 'backwards', maxCount: 1 });
  return last && (decodeEvent(last) as StoredEvent<E>);
};

/** The events as the port stores them; under an idempotency key, with the ids derived from it (the request's next ranks on the stream). */
export const toNewEvents = (streamName: string, events: readonly DomainEvent[], context: CommandContext, occurredAt: Date): NewEvent[] => {
  const request = context.idempotency;
  const firstRank = request ? nextRank(request, streamName) : 0;
  return events.map((event, index) => {
    const { data, schemaVersion } = encodeEvent(event);
    return {
      id: request ? requestEventId(request, streamName, firstRank + index) : randomUUID(),
      type: event.type,
      data,
      metadata: {
        actor: context.actor,
        correlationId: context.correlationId,
        causationId: context.causationId ?? context.correlationId,
        occurredAt: occurredAt.toISOString(),
        schemaVersion,
        ...(request && { idempotencyKey: request.key }),
        ...(context.clientRequestId !== undefined && { clientRequestId: context.clientRequestId }),
      },
    };
  });
};

export const appendDomainEvents = (
  store: EventStore,
  streamName: string,
  events: readonly DomainEvent[],
  context: CommandContext,
  occurredAt: Date,
  expectedRevision: ExpectedRevision,
): Promise<AppendResult> => store.appendToStream(streamName, toNewEvents(streamName, events, context, occurredAt), { expectedRevision });
