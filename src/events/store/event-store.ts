/**
 * The event-store port. Its semantics are EventStoreDB's, so that the embedded adapter and the
 * EventStoreDB adapter are interchangeable behind it:
 * - streams are named `<category>-<id>`; stream revisions start at 0;
 * - every event has a global commit `position`, strictly increasing over all events (gaps allowed);
 * - appends carry an expected revision and are all-or-nothing;
 * - re-sending the same event ids at the same expected revision records nothing twice and succeeds.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Who caused an event: an API client (group + token label), the scheduler or the system itself. */
export type Actor = { kind: 'token'; group: string; label: string; tokenId?: string } | { kind: 'cron' } | { kind: 'system' };

export type EventMetadata = {
  actor: Actor;
  /** Chosen by the service for the request or job that caused the event. */
  correlationId: string;
  causationId: string;
  /** The `X-Request-Id` the client sent with that request, as it sent it: the client's word, not an audit key. */
  clientRequestId?: string;
  occurredAt: string; // ISO-8601 instant
  schemaVersion?: number;
  /** The `Idempotency-Key` the client sent with the request that caused the event (the id is then derived from it). */
  idempotencyKey?: string;
  /**
   * The customer key its personal data was sealed with and, as stored, the sealed values (the data
   * then holds `[erased]` in their place); read back with the key ID alone (personal-data/).
   */
  personalData?: { keyId: string; iv?: string; sealed?: string };
};

export type NewEvent = {
  id: string; // UUID, chosen by the writer (makes the append idempotent)
  type: string;
  data: JsonObject;
  metadata: EventMetadata;
};

export type RecordedEvent = NewEvent & {
  streamName: string;
  revision: number;
  position: number;
  recordedAt: string; // ISO-8601 instant the store recorded it
};

/** An event as the store keeps it: its data and metadata the JSON text it stored, not parsed. */
export type UnparsedEvent = Omit<RecordedEvent, 'data' | 'metadata'> & { dataJson: string; metadataJson: string };

/** The event of an unparsed one, its data and metadata parsed, as the store's other reads give it. */
export const parsedEvent = ({ dataJson, metadataJson, ...event }: UnparsedEvent): RecordedEvent => ({
  ...event,
  data: JSON.parse(dataJson) as JsonObject,
  metadata: JSON.parse(metadataJson) as EventMetadata,
});

/** `any`: no check; `no_stream`: the stream must not exist; `stream_exists`: it must; a number: the stream's last revision. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export type AppendOptions = { expectedRevision?: ExpectedRevision };

export type AppendResult = {
  /** Revision of the last event now in the stream (pass it as the next expected revision). */
  nextExpectedRevision: number;
  /** Commit position of the last event of this append. */
  position: number;
};

export type Direction = 'forwards' | 'backwards';

export type ReadStreamOptions = {
  direction?: Direction;
  /** Inclusive. Forwards default 0; backwards default the end of the stream. */
  fromRevision?: number;
  maxCount?: number;
};

export type ReadAllOptions = {
  direction?: Direction;
  /** Exclusive when reading forwards: events strictly after this position. Default: the start. */
  fromPosition?: number;
  maxCount?: number;
  filter?: EventFilter;
};

/** Server-side filter of a read or subscription to all: by event type or by stream-name prefix. */
export type EventFilter = { eventTypes: readonly string[] } | { streamPrefixes: readonly string[] };

export type SubscribeToAllOptions = {
  /** Deliver events strictly after this position; omitted: from the start of the log. */
  fromPosition?: number;
  filter?: EventFilter;
};

/**
 * A catch-up subscription: it delivers the history after `fromPosition`, then switches to live events
 * without a gap or a duplicate. Iterate it; `unsubscribe()` ends the iteration.
 */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  unsubscribe(): Promise<void>;
  /**
   * Resolves once the subscription has delivered every event that existed when it started; rejects
   * (EventStoreUnavailableError) if the subscription ends first: unsubscribed, or the store closed.
   */
  readonly caughtUp: Promise<void>;
}

export interface EventStore {
  appendToStream(streamName: string, events: readonly NewEvent[], options?: AppendOptions): Promise<AppendResult>;
  /** The stream's events; an empty array when the stream does not exist. */
  readStream(streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: SubscribeToAllOptions): Subscription;
  /**
   * Up to `maxCount` events strictly after `fromPosition` (-1: from the start), as stored: their data
   * and metadata unparsed. What the log's tree is made from (audit/leaf.ts) when the store offers it,
   * read at the cost of reading alone; the embedded store does.
   */
  readAllUnparsed?(fromPosition: number, maxCount: number): Promise<UnparsedEvent[]>;
  /** Position of the last event in the log, or -1 when the log is empty. */
  headPosition(): Promise<number>;
  close(): Promise<void>;
}

/** The stream's actual state did not match the expected revision. */
export class WrongExpectedVersionError extends Error {
  readonly code = 'WRONG_EXPECTED_VERSION';
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    /** The stream's last revision, or 'no_stream' when it does not exist. */
    readonly actual: number | 'no_stream',
  ) {
    super(`Wrong expected revision on stream ${streamName}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedVersionError';
  }
}

/** An append or read that the store refused for its arguments (empty stream name, an invalid event). */
export class InvalidEventStoreRequestError extends Error {
  readonly code = 'INVALID_EVENT_STORE_REQUEST';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidEventStoreRequestError';
  }
}

/** The store is closed or unreachable. */
export class EventStoreUnavailableError extends Error {
  readonly code = 'EVENT_STORE_UNAVAILABLE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EventStoreUnavailableError';
  }
}

export const streamCategory = (streamName: string): string => {
  const dash = streamName.indexOf('-');
  return dash < 0 ? streamName : streamName.slice(0, dash);
};
