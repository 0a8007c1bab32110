import { ErrorType, isCommandError, WrongExpectedVersionError as EsdbWrongExpectedVersionError } from '@eventstore/db-client';
import { EventStoreUnavailableError, InvalidEventStoreRequestError, WrongExpectedVersionError, type ExpectedRevision } from '../event-store.ts';

// Errors of the connection or of the cluster's state, after which the same call may succeed later.
const TRANSIENT = new Set<string>([ErrorType.UNAVAILABLE, ErrorType.CANCELLED, ErrorType.DEADLINE_EXCEEDED, ErrorType.TIMEOUT, ErrorType.NOT_LEADER]);
const REFUSED = new Set<string>([ErrorType.INVALID_ARGUMENT, ErrorType.STREAM_DELETED, ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED, ErrorType.INVALID_TRANSACTION]);
// gRPC statuses seen when a connection dies under a call: UNAVAILABLE, CANCELLED (not by us), DEADLINE_EXCEEDED, ABORTED, INTERNAL.
const TRANSIENT_GRPC_CODES = new Set([14, 1, 4, 10, 13]);

const grpcCode = (error: unknown): number | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
};

/**
 * Maps what `@eventstore/db-client` throws to the port's typed errors. An append's wrong expected
 * version keeps the caller's expected revision and the stream's actual one.
 */
export function translateError(error: unknown, append?: { streamName: string; expected: ExpectedRevision }): unknown {
  if (error instanceof EsdbWrongExpectedVersionError && append !== undefined) {
    const actual = error.actualVersion;
    return new WrongExpectedVersionError(append.streamName, append.expected, actual === 'no_stream' ? 'no_stream' : Number(actual));
  }
  if (error instanceof Error && isCommandError(error)) {
    if (TRANSIENT.has(error.type)) return new EventStoreUnavailableError(`EventStoreDB is unavailable: ${error.message}`, { cause: error });
    if (REFUSED.has(error.type)) return new InvalidEventStoreRequestError(`EventStoreDB refused the request: ${error.message}`);
    const code = grpcCode((error as { _raw?: unknown })._raw) ?? grpcCode(error);
    if (code !== undefined && TRANSIENT_GRPC_CODES.has(code))
      return new EventStoreUnavailableError(`EventStoreDB is unavailable: ${error.message}`, { cause: error });
    return error;
  }
  const code = grpcCode(error);
  if (code !== undefined && TRANSIENT_GRPC_CODES.has(code)) {
    return new EventStoreUnavailableError(`EventStoreDB is unavailable: ${(error as Error).message}`, { cause: error });
  }
  return error;
}

export const isUnavailable = (error: unknown): boolean => translateError(error) instanceof EventStoreUnavailableError;
