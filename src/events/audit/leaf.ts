import { parsedEvent, type JsonValue, type RecordedEvent, type UnparsedEvent } from '../store/event-store.ts';
import { canonicalJson } from './canonical-json.ts';
import { canonicalJsonOfText } from './canonical-json-text.ts';
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

/**
 * The same text made from the event as stored, its data and metadata never parsed (a tree built from a
 * long log spends most of its time parsing and rewriting them otherwise): their texts in key order,
 * between the other fields written as canonicalJson writes them. An event whose text canonical-json-text.ts
 * cannot vouch for, or whose fields are not the strings and integers of an event, is parsed and written
 * as above; the specs hold the two ways to the same bytes.
 */
const unparsedLeafText = (event: UnparsedEvent): string => {
  const data = canonicalJsonOfText(event.dataJson);
  const metadata = data === undefined ? undefined : canonicalJsonOfText(event.metadataJson);
  const { id, position, recordedAt, revision, streamName, type } = event;
  if (
    metadata === undefined ||
    typeof id !== 'string' ||
    typeof recordedAt !== 'string' ||
    typeof streamName !== 'string' ||
    typeof type !== 'string' ||
    !Number.isSafeInteger(position) ||
    !Number.isSafeInteger(revision)
  ) {
    return leafText(parsedEvent(event));
  }
  const quoted = JSON.stringify;
  return `{"data":${data},"id":${quoted(id)},"metadata":${metadata},"position":${position},"recordedAt":${quoted(recordedAt)},"revision":${revision},"stream":${quoted(streamName)},"type":${quoted(type)}}`;
};

export const unparsedEventLeaf = (event: UnparsedEvent): Buffer => Buffer.from(unparsedLeafText(event), 'utf8');

export const unparsedEventLeafHash = (event: UnparsedEvent): Hash => leafHash(unparsedLeafText(event));
