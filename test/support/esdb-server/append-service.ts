import type * as grpc from '@grpc/grpc-js';
import {
  InvalidEventStoreRequestError,
  WrongExpectedVersionError,
  type AppendResult,
  type ExpectedRevision,
  type NewEvent,
} from '../../../src/events/store/event-store.ts';
import { BadRequest, errorStatus, toNewEvent } from './messages.ts';
import {
  AllStreamPosition,
  AppendResp,
  BatchAppendResp,
  Empty,
  RPC_CODE,
  streamIdentifier,
  streamNameOf,
  Timeout,
  WrongExpectedVersion,
  type AppendReqMessage,
  type BatchAppendReqMessage,
} from './protocol.ts';
import type { ServerContext } from './server-context.ts';

type ExpectedOption = {
  hasAny(): boolean;
  hasNoStream(): boolean;
  hasStreamExists(): boolean;
};

const expectedOf = (options: ExpectedOption, revision: () => string): ExpectedRevision => {
  if (options.hasAny()) return 'any';
  if (options.hasNoStream()) return 'no_stream';
  if (options.hasStreamExists()) return 'stream_exists';
  return Number(revision());
};

/**
 * Runs one append on the store, with the fault the test asked for, if any: the connections are cut
 * before the write reaches the store, or after it (the client never hears of its success).
 */
async function appendWithFaults(context: ServerContext, streamName: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult | 'dropped'> {
  const fault = context.takeAppendFault();
  if (fault === 'before-write') {
    await context.dropConnections();
    return 'dropped';
  }
  const result = await context.store.appendToStream(streamName, events, { expectedRevision: expected });
  context.appended.notify();
  if (fault === 'after-write') {
    await context.dropConnections();
    return 'dropped';
  }
  return result;
}

const serviceError = (error: unknown): Partial<grpc.ServiceError> => ({
  code: error instanceof BadRequest || error instanceof InvalidEventStoreRequestError ? RPC_CODE.INVALID_ARGUMENT : RPC_CODE.UNAVAILABLE,
  details: (error as Error).message,
});

/** Streams.Append: client streaming, the options first, then one message per proposed event. */
export function appendHandler(context: ServerContext): grpc.handleClientStreamingCall<AppendReqMessage, InstanceType<typeof AppendResp>> {
  return (call, callback) => {
    let streamName = '';
    let expected: ExpectedRevision = 'any';
    const events: NewEvent[] = [];
    let refused: unknown;
    call.on('data', (request: AppendReqMessage) => {
      try {
        const options = request.getOptions();
        if (options !== undefined) {
          streamName = streamNameOf(options.getStreamIdentifier());
          expected = expectedOf(options, () => options.getRevision());
        }
        const proposed = request.getProposedMessage();
        if (proposed !== undefined) events.push(toNewEvent(proposed));
      } catch (error) {
        refused ??= error;
      }
    });
    call.on('end', () => {
      if (refused !== undefined) return callback(serviceError(refused));
      appendWithFaults(context, streamName, events, expected).then(
        (result) => {
          if (result !== 'dropped') callback(null, appendSuccess(result));
        },
        (error: unknown) => {
          if (error instanceof WrongExpectedVersionError) callback(null, appendWrongVersion(error));
          else callback(serviceError(error));
        },
      );
    });
  };
}

function appendSuccess(result: AppendResult) {
  const success = new AppendResp.Success();
  if (result.nextExpectedRevision < 0) success.setNoStream(new Empty());
  else success.setCurrentRevision(String(result.nextExpectedRevision));
  if (result.position < 0) success.setNoPosition(new Empty());
  else {
    const position = new AppendResp.Position();
    position.setCommitPosition(String(result.position));
    position.setPreparePosition(String(result.position));
    success.setPosition(position);
  }
  const response = new AppendResp();
  response.setSuccess(success);
  return response;
}

function appendWrongVersion(error: WrongExpectedVersionError) {
  const wrong = new AppendResp.WrongExpectedVersion();
  if (error.actual === 'no_stream') wrong.setCurrentNoStream(new Empty());
  else wrong.setCurrentRevision(String(error.actual));
  if (error.expected === 'any') wrong.setExpectedAny(new Empty());
  else if (error.expected === 'no_stream') wrong.setExpectedNoStream(new Empty());
  else if (error.expected === 'stream_exists') wrong.setExpectedStreamExists(new Empty());
  else wrong.setExpectedRevision(String(error.expected));
  const response = new AppendResp();
  response.setWrongExpectedVersion(wrong);
  return response;
}

type PendingBatch = { streamName: string; expected: ExpectedRevision; deadline: number | undefined; events: NewEvent[]; refused?: unknown };

/**
 * Streams.BatchAppend: one bidirectional stream per connection carries many appends, each a series
 * of requests sharing a correlation id, the first with the options, the last marked final; each gets
 * one answer with that correlation id, in completion order.
 */
export function batchAppendHandler(context: ServerContext): grpc.handleBidiStreamingCall<BatchAppendReqMessage, InstanceType<typeof BatchAppendResp>> {
  return (call) => {
    const pending = new Map<string, PendingBatch>();
    call.on('data', (request: BatchAppendReqMessage) => {
      const correlation = request.getCorrelationId();
      const key = correlation?.getString() ?? '';
      const options = request.getOptions();
      if (options !== undefined) {
        pending.set(key, {
          streamName: streamNameOf(options.getStreamIdentifier()),
          expected: expectedOf(options, () => options.getStreamPosition()),
          deadline: options.getDeadline()?.toDate().getTime(),
          events: [],
        });
      }
      const batch = pending.get(key);
      if (batch === undefined || correlation === undefined) return;
      try {
        for (const proposed of request.getProposedMessagesList()) batch.events.push(toNewEvent(proposed));
      } catch (error) {
        batch.refused ??= error;
      }
      if (!request.getIsFinal()) return;
      pending.delete(key);
      void answerBatch(context, batch).then((response) => {
        if (response === 'dropped' || call.cancelled || call.destroyed) return;
        response.setCorrelationId(correlation);
        response.setStreamIdentifier(streamIdentifier(batch.streamName));
        call.write(response);
      });
    });
    call.on('end', () => call.end());
  };
}

async function answerBatch(context: ServerContext, batch: PendingBatch) {
  const response = new BatchAppendResp();
  const fail = (code: number, message: string, detail: { serializeBinary(): Uint8Array }, typeName: string) => {
    response.setError(errorStatus(code, message, detail, typeName));
    return response;
  };
  if (batch.deadline !== undefined && Date.now() > batch.deadline) {
    return fail(RPC_CODE.DEADLINE_EXCEEDED, 'Timeout', new Timeout(), 'event_store.client.Timeout');
  }
  if (batch.refused !== undefined) {
    return fail(RPC_CODE.INVALID_ARGUMENT, (batch.refused as Error).message, new Empty(), 'event_store.client.BadRequest');
  }
  try {
    const result = await appendWithFaults(context, batch.streamName, batch.events, batch.expected);
    if (result === 'dropped') return result;
    const success = new BatchAppendResp.Success();
    if (result.nextExpectedRevision < 0) success.setNoStream(new Empty() as never);
    else success.setCurrentRevision(String(result.nextExpectedRevision));
    if (result.position < 0) success.setNoPosition(new Empty() as never);
    else {
      const position = new AllStreamPosition();
      position.setCommitPosition(String(result.position));
      position.setPreparePosition(String(result.position));
      success.setPosition(position);
    }
    response.setSuccess(success);
    return response;
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError)) {
      return fail(RPC_CODE.UNAVAILABLE, (error as Error).message, new Empty(), 'event_store.client.Unknown');
    }
    return fail(RPC_CODE.FAILED_PRECONDITION, error.message, wrongVersionDetails(error), 'event_store.client.WrongExpectedVersion');
  }
}

function wrongVersionDetails(error: WrongExpectedVersionError) {
  const details = new WrongExpectedVersion();
  if (error.actual === 'no_stream') details.setCurrentNoStream(new Empty() as never);
  else details.setCurrentStreamRevision(String(error.actual));
  if (error.expected === 'any') details.setExpectedAny(new Empty() as never);
  else if (error.expected === 'no_stream') details.setExpectedNoStream(new Empty() as never);
  else if (error.expected === 'stream_exists') details.setExpectedStreamExists(new Empty() as never);
  else details.setExpectedStreamPosition(String(error.expected));
  return details;
}
