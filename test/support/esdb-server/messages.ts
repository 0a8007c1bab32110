import type { EventMetadata, JsonObject, NewEvent, RecordedEvent } from '../../../src/events/store/event-store.ts';
import { Any, ReadResp, Status, streamIdentifier, UUID, uuidString, type ProposedMessage, type ReadRespMessage } from './protocol.ts';

/** Conversions between the wire messages and the embedded store's events. */

/** Refused for its content: the server answers INVALID_ARGUMENT. */
export class BadRequest extends Error {}

const isPlainObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

const parseJson = (bytes: Uint8Array, what: string): unknown => {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new BadRequest(`The ${what} is not valid JSON`);
  }
};

export function toNewEvent(message: ProposedMessage): NewEvent {
  const id = uuidString(message.getId());
  const type = message.getMetadataMap().get('type');
  const contentType = message.getMetadataMap().get('content-type');
  if (id === undefined || type === undefined) throw new BadRequest('A proposed message needs an id and a type');
  // The embedded store keeps JSON objects only: binary events are refused.
  if (contentType !== 'application/json') throw new BadRequest(`Unsupported content type ${String(contentType)}`);
  const data = parseJson(message.getData_asU8(), 'data');
  const customMetadata = message.getCustomMetadata_asU8();
  const metadata = customMetadata.length === 0 ? {} : parseJson(customMetadata, 'metadata');
  if (!isPlainObject(data) || !isPlainObject(metadata)) throw new BadRequest('Data and metadata must be JSON objects');
  return { id, type, data, metadata: metadata as EventMetadata };
}

// .NET ticks (100 ns) since the Unix epoch, as EventStoreDB sends `created`.
const ticks = (iso: string): string => (BigInt(Date.parse(iso)) * 10_000n).toString();

/** A read or subscription answer carrying one event; commit and prepare positions are the store's position. */
export function eventResponse(event: RecordedEvent): ReadRespMessage {
  const id = new UUID();
  id.setString(event.id);
  const recorded = new ReadResp.ReadEvent.RecordedEvent();
  recorded.setId(id);
  recorded.setStreamIdentifier(streamIdentifier(event.streamName));
  recorded.setStreamRevision(String(event.revision));
  recorded.setCommitPosition(String(event.position));
  recorded.setPreparePosition(String(event.position));
  recorded.getMetadataMap().set('type', event.type).set('content-type', 'application/json').set('created', ticks(event.recordedAt));
  recorded.setData(Buffer.from(JSON.stringify(event.data), 'utf8'));
  const metadata = event.metadata as unknown as JsonObject;
  recorded.setCustomMetadata(Object.keys(metadata).length === 0 ? new Uint8Array() : Buffer.from(JSON.stringify(metadata), 'utf8'));
  const readEvent = new ReadResp.ReadEvent();
  readEvent.setEvent(recorded);
  readEvent.setCommitPosition(String(event.position));
  const response = new ReadResp();
  response.setEvent(readEvent);
  return response;
}

export function checkpointResponse(position: number): ReadRespMessage {
  const checkpoint = new ReadResp.Checkpoint();
  checkpoint.setCommitPosition(String(position));
  checkpoint.setPreparePosition(String(position));
  const response = new ReadResp();
  response.setCheckpoint(checkpoint);
  return response;
}

export function confirmationResponse(subscriptionId: string): ReadRespMessage {
  const confirmation = new ReadResp.SubscriptionConfirmation();
  confirmation.setSubscriptionId(subscriptionId);
  const response = new ReadResp();
  response.setConfirmation(confirmation);
  return response;
}

export function caughtUpResponse(): ReadRespMessage {
  const response = new ReadResp();
  response.setCaughtUp(new ReadResp.CaughtUp());
  return response;
}

export function fellBehindResponse(): ReadRespMessage {
  const response = new ReadResp();
  response.setFellBehind(new ReadResp.FellBehind());
  return response;
}

export function streamNotFoundResponse(streamName: string): ReadRespMessage {
  const notFound = new ReadResp.StreamNotFound();
  notFound.setStreamIdentifier(streamIdentifier(streamName));
  const response = new ReadResp();
  response.setStreamNotFound(notFound);
  return response;
}

/** A google.rpc.Status whose details name the error, as EventStoreDB's batch append answers failures. */
export function errorStatus(code: number, message: string, detail: { serializeBinary(): Uint8Array }, typeName: string) {
  const details = new Any();
  details.pack(detail.serializeBinary(), typeName);
  const status = new Status();
  status.setCode(code);
  status.setMessage(message);
  status.setDetails(details as never);
  return status;
}
