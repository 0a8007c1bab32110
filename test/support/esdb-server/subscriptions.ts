import { randomUUID } from 'node:crypto';
import { send, type ReadCall } from './call-writer.ts';
import { passes, type WireFilter } from './filters.ts';
import { caughtUpResponse, checkpointResponse, confirmationResponse, eventResponse, fellBehindResponse } from './messages.ts';
import { ReadReq, streamNameOf } from './protocol.ts';
import type { ServerContext } from './server-context.ts';

type Options = InstanceType<typeof ReadReq.Options>;

const UNFILTERED_WINDOW = 32;
// How often a live subscription looks at the log when no append through the server woke it.
const POLL_MS = 250;

/**
 * A subscription to `$all`, modelled on EventStoreDB's: a confirmation, then the history after the
 * start position read in pages of the search window, then live events. Filtered subscriptions get a
 * checkpoint every `checkpointInterval` considered events and one when they reach the end of the log;
 * `caught_up` is sent on reaching the end, `fell_behind` when more than a window of events piled up
 * while live (the subscription then catches up again).
 */
export async function subscribeToAll(
  context: ServerContext,
  call: ReadCall,
  options: Options,
  filter: WireFilter | undefined,
  abort: AbortSignal,
): Promise<void> {
  const all = options.getAll()!;
  let cursor = 0; // positions start at 1: "after 0" is the start of the log
  if (all.hasEnd()) cursor = Math.max(0, await context.store.headPosition());
  else if (all.hasPosition()) cursor = Number(all.getPosition()!.getCommitPosition());
  await send(call, confirmationResponse(randomUUID()), abort);

  const window = filter?.window ?? UNFILTERED_WINDOW;
  let live = false;
  let considered = 0;
  let lastCheckpoint = -1;
  const checkpoint = async () => {
    if (filter === undefined || cursor <= 0 || cursor === lastCheckpoint) return;
    lastCheckpoint = cursor;
    await send(call, checkpointResponse(cursor), abort);
  };

  while (!abort.aborted) {
    const page = await context.store.readAll({ fromPosition: cursor, maxCount: window });
    for (const event of page) {
      if (abort.aborted) return;
      if (passes(filter, event)) await send(call, eventResponse(event), abort);
      cursor = event.position;
    }
    considered += page.length;
    if (filter !== undefined && considered >= filter.checkpointInterval) {
      considered %= filter.checkpointInterval;
      await checkpoint();
    }
    if (page.length === window) {
      if (live) await send(call, fellBehindResponse(), abort);
      live = false;
      continue;
    }
    if (!live) {
      await checkpoint();
      await send(call, caughtUpResponse(), abort);
      live = true;
    }
    await context.appended.wait(POLL_MS, abort);
  }
}

/** A subscription to one stream: after a revision (exclusive), from the start, or from the end; no checkpoints. */
export async function subscribeToStream(context: ServerContext, call: ReadCall, options: Options, abort: AbortSignal): Promise<void> {
  const streamOptions = options.getStream()!;
  const streamName = streamNameOf(streamOptions.getStreamIdentifier());
  let next = 0;
  if (streamOptions.hasEnd()) {
    const [last] = await context.store.readStream(streamName, { direction: 'backwards', maxCount: 1 });
    next = (last?.revision ?? -1) + 1;
  } else if (!streamOptions.hasStart()) next = Number(streamOptions.getRevision()) + 1;
  await send(call, confirmationResponse(randomUUID()), abort);

  let live = false;
  while (!abort.aborted) {
    const page = await context.store.readStream(streamName, { fromRevision: next, maxCount: UNFILTERED_WINDOW });
    for (const event of page) {
      if (abort.aborted) return;
      await send(call, eventResponse(event), abort);
      next = event.revision + 1;
    }
    if (page.length === UNFILTERED_WINDOW) {
      if (live) await send(call, fellBehindResponse(), abort);
      live = false;
      continue;
    }
    if (!live) {
      await send(call, caughtUpResponse(), abort);
      live = true;
    }
    await context.appended.wait(POLL_MS, abort);
  }
}
