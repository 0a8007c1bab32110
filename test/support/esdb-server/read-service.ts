import type * as grpc from '@grpc/grpc-js';
import { InvalidEventStoreRequestError, type RecordedEvent } from '../../../src/events/store/event-store.ts';
import { send, type ReadCall } from './call-writer.ts';
import { filterOf, passes, readOptionsOf, type WireFilter } from './filters.ts';
import { BadRequest, eventResponse, streamNotFoundResponse } from './messages.ts';
import { ReadReq, RPC_CODE, streamNameOf } from './protocol.ts';
import type { ServerContext } from './server-context.ts';
import { subscribeToAll, subscribeToStream } from './subscriptions.ts';

type Options = InstanceType<typeof ReadReq.Options>;

const BACKWARDS = ReadReq.Options.ReadDirection.BACKWARDS;
const PAGE = 500;

// Counts travel as uint64 strings; the client sends Number.MAX_SAFE_INTEGER for "all".
const countOf = (options: Options): number => Number(BigInt.asUintN(53, BigInt(options.getCount() || '0')));

/** Streams.Read: reads of a stream or of `$all`, and subscriptions to either (see subscriptions.ts). */
export function readHandler(context: ServerContext): grpc.handleServerStreamingCall<ReadReqMessage, ReadRespMessage> {
  return (call) => {
    const abort = new AbortController();
    call.on('cancelled', () => abort.abort());
    call.on('close', () => abort.abort());
    void serve(context, call, abort.signal).then(
      () => call.end(),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        const refused = error instanceof BadRequest || error instanceof InvalidEventStoreRequestError;
        call.emit('error', { code: refused ? RPC_CODE.INVALID_ARGUMENT : RPC_CODE.UNAVAILABLE, details: (error as Error).message });
      },
    );
  };
}

type ReadReqMessage = import('./protocol.ts').ReadReqMessage;
type ReadRespMessage = import('./protocol.ts').ReadRespMessage;

async function serve(context: ServerContext, call: ReadCall, abort: AbortSignal): Promise<void> {
  const options = readOptionsOf(call.request);
  const filter = filterOf(options);
  if (options.hasSubscription()) {
    if (options.hasAll()) return subscribeToAll(context, call, options, filter, abort);
    return subscribeToStream(context, call, options, abort);
  }
  const events = options.hasAll() ? await readAll(context, options, filter) : await readStream(context, call, options, abort);
  for (const event of events ?? []) await send(call, eventResponse(event), abort);
}

async function readStream(context: ServerContext, call: ReadCall, options: Options, abort: AbortSignal): Promise<RecordedEvent[] | undefined> {
  const streamOptions = options.getStream();
  if (streamOptions === undefined) throw new BadRequest('A read needs a stream or $all');
  const streamName = streamNameOf(streamOptions.getStreamIdentifier());
  const [last] = await context.store.readStream(streamName, { direction: 'backwards', maxCount: 1 });
  if (last === undefined) {
    await send(call, streamNotFoundResponse(streamName), abort);
    return undefined;
  }
  const backwards = options.getReadDirection() === BACKWARDS;
  const maxCount = countOf(options);
  if (maxCount === 0) return [];
  let fromRevision: number;
  if (streamOptions.hasStart()) fromRevision = 0;
  else if (streamOptions.hasEnd()) fromRevision = backwards ? last.revision : last.revision + 1;
  else fromRevision = Number(streamOptions.getRevision());
  return context.store.readStream(streamName, { direction: backwards ? 'backwards' : 'forwards', fromRevision, maxCount });
}

/**
 * Reads of `$all`: forwards from a position includes the event at that position; backwards from a
 * position starts strictly before it, as EventStoreDB does. A filter is applied while scanning.
 */
async function readAll(context: ServerContext, options: Options, filter: WireFilter | undefined): Promise<RecordedEvent[]> {
  const allOptions = options.getAll()!;
  const backwards = options.getReadDirection() === BACKWARDS;
  const maxCount = countOf(options);
  let cursor: number | undefined;
  if (allOptions.hasStart()) {
    if (backwards) return [];
    cursor = undefined;
  } else if (allOptions.hasEnd()) {
    if (!backwards) return [];
    cursor = undefined;
  } else {
    const commit = Number(allOptions.getPosition()!.getCommitPosition());
    cursor = backwards ? commit : commit - 1;
  }
  const found: RecordedEvent[] = [];
  while (found.length < maxCount) {
    const page = await context.store.readAll({ direction: backwards ? 'backwards' : 'forwards', fromPosition: cursor, maxCount: PAGE });
    for (const event of page) if (passes(filter, event) && found.length < maxCount) found.push(event);
    if (page.length < PAGE) break;
    cursor = page.at(-1)?.position;
  }
  return found;
}
