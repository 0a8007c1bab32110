/**
 * The gRPC service definitions and protobuf messages of EventStoreDB, as they ship inside
 * `@eventstore/db-client` (generated CommonJS, loaded through their default export).
 */
import anyPb from 'google-protobuf/google/protobuf/any_pb.js';
import serverFeaturesGrpc from '@eventstore/db-client/generated/serverfeatures_grpc_pb.js';
import serverFeaturesPb from '@eventstore/db-client/generated/serverfeatures_pb.js';
import sharedPb from '@eventstore/db-client/generated/shared_pb.js';
import statusPb from '@eventstore/db-client/generated/status_pb.js';
import streamsGrpc from '@eventstore/db-client/generated/streams_grpc_pb.js';
import streamsPb from '@eventstore/db-client/generated/streams_pb.js';

export const { StreamsService } = streamsGrpc;
export const { ServerFeaturesService } = serverFeaturesGrpc;
export const { SupportedMethod, SupportedMethods } = serverFeaturesPb;
export const { AllStreamPosition, Empty, StreamIdentifier, Timeout, UUID, WrongExpectedVersion } = sharedPb;
export const { Status } = statusPb;
export const { AppendReq, AppendResp, BatchAppendReq, BatchAppendResp, ReadReq, ReadResp } = streamsPb;
export const { Any } = anyPb;

export type AppendReqMessage = InstanceType<typeof AppendReq>;
export type BatchAppendReqMessage = InstanceType<typeof BatchAppendReq>;
export type ReadReqMessage = InstanceType<typeof ReadReq>;
export type ReadRespMessage = InstanceType<typeof ReadResp>;
export type ProposedMessage = InstanceType<typeof AppendReq.ProposedMessage> | InstanceType<typeof BatchAppendReq.ProposedMessage>;
export type UUIDMessage = InstanceType<typeof UUID>;

// google.rpc.Code values used in statuses (the same numbers as gRPC's status codes).
export const RPC_CODE = { INVALID_ARGUMENT: 3, DEADLINE_EXCEEDED: 4, FAILED_PRECONDITION: 9, UNAVAILABLE: 14 } as const;

export const streamNameOf = (identifier: { getStreamName_asU8(): Uint8Array } | undefined): string =>
  identifier === undefined ? '' : Buffer.from(identifier.getStreamName_asU8()).toString('utf8');

export const streamIdentifier = (streamName: string) => {
  const identifier = new StreamIdentifier();
  identifier.setStreamName(Uint8Array.from(Buffer.from(streamName, 'utf8')));
  return identifier;
};

/** UUIDs travel as strings or as two 64-bit halves; the store keeps the canonical string. */
export const uuidString = (uuid: UUIDMessage | undefined): string | undefined => {
  if (uuid === undefined) return undefined;
  if (!uuid.hasStructured()) return uuid.getString();
  const structured = uuid.getStructured()!;
  const hex = [structured.getMostSignificantBits(), structured.getLeastSignificantBits()]
    .map((half) => BigInt.asUintN(64, BigInt(half)).toString(16).padStart(16, '0'))
    .join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
