import { jsonEvent, type AllStreamResolvedEvent, type JSONEventType, type ResolvedEvent } from '@eventstore/db-client';
import type { EventFilter, EventMetadata, JsonObject, NewEvent, RecordedEvent } from '../event-store.ts';

/** Conversions between the port's events and the client's, and the system-event rule. */

type PortEventType = JSONEventType<string, JsonObject, EventMetadata>;

export const toEventData = (event: NewEvent) => jsonEvent<PortEventType>({ id: event.id, type: event.type, data: event.data, metadata: event.metadata });

/** A recorded event of the port, or undefined for what the port cannot hold (binary payloads, links without their event). */
export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (event === undefined || !event.isJson || event.position === undefined) return undefined;
  return {
    id: event.id,
    type: event.type,
    data: event.data as JsonObject,
    metadata: (event.metadata ?? {}) as EventMetadata,
    streamName: event.streamId,
    revision: Number(event.revision),
    position: Number(event.position.commit),
    recordedAt: event.created.toISOString(),
  };
}

/**
 * EventStoreDB's own events: `$`-prefixed types (`$metadata`, `$statsCollection`, links `$>`) or
 * streams (`$$<stream>`, `$stats-…`, `$ce-…`). The port never shows them.
 */
export const isSystemEvent = (event: { type: string; streamName: string }): boolean => event.type.startsWith('$') || event.streamName.startsWith('$');

export function matchesFilter(filter: EventFilter | undefined, event: RecordedEvent): boolean {
  if (filter === undefined) return true;
  if ('eventTypes' in filter) return filter.eventTypes.includes(event.type);
  return filter.streamPrefixes.some((prefix) => event.streamName.startsWith(prefix));
}

export const esdbPosition = (position: number) => ({ commit: BigInt(position), prepare: BigInt(position) });
