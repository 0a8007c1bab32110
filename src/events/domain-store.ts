import { randomUUID } from 'node:crypto';
import { decodeEvent, encodeEvent, type DomainEvent, type StoredEvent } from './catalogue/catalogue.ts';
import type { CommandContext } from './command-context.ts';
import type { AppendResult, EventStore, ExpectedRevision, NewEvent } from './store/event-store.ts';

/** Reads and writes domain events through the port, validating them against the catalogue both ways. */

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

export const toNewEvents = (events: readonly DomainEvent[], context: CommandContext, occurredAt: Date): NewEvent[] =>
  events.map((event) => {
    const { data, schemaVersion } = encodeEvent(event);
    return {
      id: randomUUID(),
      type: event.type,
      data,
      metadata: {
        actor: context.actor,
        correlationId: context.correlationId,
        causationId: context.causationId ?? context.correlationId,
        occurredAt: occurredAt.toISOString(),
        schemaVersion,
      },
    };
  });

export const appendDomainEvents = (
  store: EventStore,
  streamName: string,
  events: readonly DomainEvent[],
  context: CommandContext,
  occurredAt: Date,
  expectedRevision: ExpectedRevision,
): Promise<AppendResult> => store.appendToStream(streamName, toNewEvents(events, context, occurredAt), { expectedRevision });
