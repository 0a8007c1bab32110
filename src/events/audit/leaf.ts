import type { JsonValue, RecordedEvent } from '../store/event-store.ts';
import { leafHash, type Hash } from './merkle.ts';

/**
 * The leaf of an event in the log's Merkle tree: the event as recorded, in canonical JSON (UTF-8).
 *
 * `{"data":…,"id":…,"metadata":…,"position":…,"recordedAt":…,"revision":…,"stream":…,"type":…}`:
 * every object's keys sorted by their UTF-16 code units, no white space, strings and numbers as
 * `JSON.stringify` writes them (RFC 8785's canonical form for the values events hold: integers,
 * strings, booleans, null). The data and metadata are the ones stored, under the encrypting layer:
 * personal values sealed (`[erased]` in the data, their ciphertext in `metadata.personalData`), so the
 * leaf never holds personal data in clear and deleting a customer's key changes none.
 */
export const canonicalJson = (value: JsonValue | undefined): string => {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError('A leaf holds finite numbers only');
    return JSON.stringify(value ?? null);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const keys = Object.keys(value)
    .filter((key) => value[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
};

export const eventLeaf = (event: RecordedEvent): Buffer =>
  Buffer.from(
    canonicalJson({
      data: event.data,
      id: event.id,
      metadata: event.metadata as unknown as JsonValue,
      position: event.position,
      recordedAt: event.recordedAt,
      revision: event.revision,
      stream: event.streamName,
      type: event.type,
    }),
    'utf8',
  );

export const eventLeafHash = (event: RecordedEvent): Hash => leafHash(eventLeaf(event));
