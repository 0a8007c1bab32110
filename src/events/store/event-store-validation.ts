import {
  InvalidEventStoreRequestError,
  type EventFilter,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
} from './event-store.ts';

/**
 * Argument checks shared by the adapters of the event-store port, so that every adapter refuses the
 * same requests with the same error before touching its storage.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const invalid = (message: string): InvalidEventStoreRequestError => new InvalidEventStoreRequestError(message);

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function assertStreamName(streamName: unknown): asserts streamName is string {
  if (typeof streamName !== 'string' || streamName.trim() === '') throw invalid('The stream name must be a non-empty string');
}

export function assertExpectedRevision(expected: unknown): asserts expected is ExpectedRevision {
  if (expected === 'any' || expected === 'no_stream' || expected === 'stream_exists') return;
  if (typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= 0) return;
  throw invalid(`Invalid expected revision: ${String(expected)}`);
}

/** An event ready to store: its id in canonical (lower-case) form and its JSON payloads serialised. */
export type SerialisedEvent = { id: string; type: string; data: string; metadata: string };

const serialise = (value: unknown, what: string): string => {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new InvalidEventStoreRequestError(`The ${what} is not serialisable as JSON: ${(error as Error).message}`);
  }
};

export function validateNewEvents(events: unknown): SerialisedEvent[] {
  if (!Array.isArray(events)) throw invalid('The events must be an array');
  const seen = new Set<string>();
  return events.map((event: Partial<NewEvent> | null, index) => {
    if (!isPlainObject(event)) throw invalid(`Event #${index} is not an object`);
    if (typeof event.id !== 'string' || !UUID.test(event.id)) throw invalid(`Event #${index} has no UUID id`);
    if (typeof event.type !== 'string' || event.type.trim() === '') throw invalid(`Event #${index} has no type`);
    if (!isPlainObject(event.data)) throw invalid(`Event #${index} data must be a JSON object`);
    if (!isPlainObject(event.metadata)) throw invalid(`Event #${index} metadata must be a JSON object`);
    // Ids are compared case-insensitively, as UUIDs are: EventStoreDB stores them as 128-bit values.
    const id = event.id.toLowerCase();
    if (seen.has(id)) throw invalid(`Event id ${id} appears twice in the batch`);
    seen.add(id);
    return { id, type: event.type, data: serialise(event.data, 'data'), metadata: serialise(event.metadata, 'metadata') };
  });
}

const assertInteger = (value: unknown, name: string, min: number): void => {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) throw invalid(`${name} must be an integer >= ${min}`);
};

const assertDirection = (direction: unknown): void => {
  if (direction !== undefined && direction !== 'forwards' && direction !== 'backwards') throw invalid(`Invalid direction: ${String(direction)}`);
};

export function validateReadStreamOptions(options: ReadStreamOptions): void {
  assertDirection(options.direction);
  assertInteger(options.fromRevision, 'fromRevision', 0);
  assertInteger(options.maxCount, 'maxCount', 1);
}

export function validateFilter(filter: EventFilter | undefined): void {
  if (filter === undefined) return;
  const values = 'eventTypes' in filter ? filter.eventTypes : 'streamPrefixes' in filter ? filter.streamPrefixes : undefined;
  if (!Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== 'string' || v === '')) {
    throw invalid('A filter needs a non-empty list of event types or stream-name prefixes');
  }
}

export function validateReadAllOptions(options: ReadAllOptions): void {
  assertDirection(options.direction);
  // -1 is accepted: it is what headPosition() answers on an empty log.
  assertInteger(options.fromPosition, 'fromPosition', -1);
  assertInteger(options.maxCount, 'maxCount', 1);
  validateFilter(options.filter);
}
