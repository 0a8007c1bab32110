import type { JsonValue, RecordedEvent } from '../store/event-store.ts';
import { canonicalJson } from './canonical-json.ts';
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
const leafText = (event: RecordedEvent): string =>
  canonicalJson({
    data: event.data,
    id: event.id,
    metadata: event.metadata as unknown as JsonValue,
    position: event.position,
    recordedAt: event.recordedAt,
    revision: event.revision,
    stream: event.streamName,
    type: event.type,
  });

export const eventLeaf = (event: RecordedEvent): Buffer => Buffer.from(leafText(event), 'utf8');

export const eventLeafHash = (event: RecordedEvent): Hash => leafHash(leafText(event));
