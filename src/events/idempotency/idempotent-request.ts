import { v5 as uuidV5 } from 'uuid';
import type { RecordedEvent } from '../store/event-store.ts';

/**
 * A command issued under a client's `Idempotency-Key`. Its events carry the key in their metadata and
 * take ids derived from the calling token, the key, the request's fingerprint, the stream and their
 * rank among the events this request writes to that stream: the same request sent again derives the same ids, so the store
 * records its events once (a re-sent batch at the same revision is an idempotent success; anywhere
 * else it conflicts), and the command path can recognise them in a stream it reads.
 */
export type IdempotentRequest = {
  tokenId: string;
  key: string;
  /**
   * The request's fingerprint (method, path, body): part of every id derived here, so that a key used
   * again for another request, once its first use has expired, derives other ids.
   */
  fingerprint: string;
  /** Events this request appended, or found already appended by an earlier try, per stream: the rank of its next event there. */
  readonly written: Map<string, number>;
};

export const idempotentRequest = (tokenId: string, key: string, fingerprint: string): IdempotentRequest => ({
  tokenId,
  key,
  fingerprint,
  written: new Map(),
});

// A fixed namespace of this service's request-derived event ids (UUID v5, RFC 9562).
const eventIdNamespace = '4f7d6c1e-2b8a-5c3d-9e0f-6a1b2c3d4e5f';

/** The id of the `rank`-th event (from 0) that the request writes to `streamName`. */
export const requestEventId = (request: IdempotentRequest, streamName: string, rank: number): string =>
  uuidV5(JSON.stringify([request.tokenId, request.key, request.fingerprint, streamName, rank]), eventIdNamespace);

/** How many events the request has written to the stream so far: the rank of its next one. */
export const nextRank = (request: IdempotentRequest, streamName: string): number => request.written.get(streamName) ?? 0;

export const countWritten = (request: IdempotentRequest, streamName: string, count: number): void => {
  request.written.set(streamName, nextRank(request, streamName) + count);
};

/**
 * Where, in the stream's events, an earlier try of this request recorded the events it is about to
 * write (its next rank onwards): their indexes in `events`, or an empty array when none is there.
 */
export const earlierTry = (request: IdempotentRequest, streamName: string, events: readonly Pick<RecordedEvent, 'id'>[]): number[] => {
  const rank = nextRank(request, streamName);
  const first = requestEventId(request, streamName, rank);
  const start = events.findIndex((event) => event.id === first);
  if (start < 0) return [];
  const found = [start];
  for (let index = start + 1; index < events.length && events[index]!.id === requestEventId(request, streamName, rank + found.length); index++) {
    found.push(index);
  }
  return found;
};

/**
 * A UUID the request chooses for something it creates (a lead's ID): derived from the token, the key
 * and the request, so that a retry after a lost answer names the same stream, where it finds its own events.
 */
export const requestChosenUuid = (request: IdempotentRequest, purpose: string): string =>
  uuidV5(JSON.stringify([request.tokenId, request.key, request.fingerprint, purpose]), eventIdNamespace);
