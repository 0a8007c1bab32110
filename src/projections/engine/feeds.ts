import { setTimeout as sleep } from 'node:timers/promises';
import { nextTurn } from '../../concurrency/time-slice.ts';
import { ReadStoreUnavailableError } from '../read-store/read-store.ts';
import { serially, type Engine, type Feed } from './engine-state.ts';
import { LogReader } from './log-reader.ts';
import { applyBatch, decodeBatch, type ProjectionSlot } from './projection-slot.ts';
import { progress } from './status.ts';

/** Waits between tries while the read store is unreachable: doubling from the first to the last. */
const retryBaseMs = 50;
const retryMaxMs = 2000;
const progressLogEveryMs = 5000;

/**
 * Opens a reader of the log for `slots` and applies its batches to them until it ends. A builder's
 * `handOver` is tried, exclusively, once it has caught up and after each of its batches.
 */
export const openFeed = (
  engine: Engine,
  kind: Feed['kind'],
  slots: ProjectionSlot[],
  fromPosition: number | undefined,
  handOver?: (feed: Feed) => Promise<void>,
): Feed => {
  const { eventStore, allTypes, maxBatch } = engine.config;
  const reader = new LogReader(eventStore, { fromPosition, eventTypes: allTypes, maxBatch });
  const feed: Feed = { kind, reader, slots, applied: fromPosition, caughtUpAt: undefined, applying: false, done: Promise.resolve() };
  reader.caughtUp.then(
    (at) => {
      feed.caughtUpAt = at ?? null;
      checkReady(engine);
      // A builder that caught up on a quiet log gets no further batch to hand its slots over after.
      if (handOver) void serially(engine.state, () => handOver(feed));
    },
    () => undefined,
  );
  feed.done = run(engine, feed, handOver);
  return feed;
};

export const feedCaughtUp = (feed: Feed): boolean =>
  feed.caughtUpAt !== undefined && (feed.caughtUpAt === null || (feed.applied !== undefined && feed.applied >= feed.caughtUpAt));

const run = async (engine: Engine, feed: Feed, handOver: ((feed: Feed) => Promise<void>) | undefined): Promise<void> => {
  const { base, log } = engine.config;
  const { state } = engine;
  try {
    for (;;) {
      const batch = await feed.reader.next();
      if (!batch) return;
      // A builder whose slots were handed over (or dropped) stops: the main reader applies what follows.
      if (feed.kind === 'builder' && !state.builders.has(feed)) return;
      feed.applying = true;
      const decoded = decodeBatch(batch);
      // The live read models' batches exclude changes to the set of slots; a builder, writing to
      // collections nothing else writes, goes on beside them (its hand-over to the main reader is exclusive).
      const guard = feed.kind === 'main' ? <T>(work: () => Promise<T>) => serially(state, work) : <T>(work: () => Promise<T>) => work();
      await guard(async () => {
        for (let attempt = 0; ; attempt += 1) {
          try {
            // Written whole, unless every slot is a new generation no request reads yet.
            const whole = feed.slots.some((slot) => state.building.get(slot.name) !== slot);
            const { applied, failures } = await applyBatch(base, feed.slots, decoded, () => Date.now(), { whole });
            for (const { slot, at, error } of failures) {
              log('error', 'Projection stopped on an event it could not apply', {
                projection: slot.name,
                generation: slot.generation.generation,
                eventType: at.type,
                position: at.position,
                eventId: at.id,
                streamName: at.streamName,
                error: error instanceof Error ? error.message : String(error),
              });
            }
            feed.applied = batch.at(-1)!.position;
            if (applied > 0) state.meter.record(Date.now(), batch.length, feed.applied);
            if (attempt > 0) {
              for (const slot of feed.slots) slot.lastError = slot.failed ? slot.lastError : null;
              log('info', 'Read store reachable again; projections resume', {});
            }
            return;
          } catch (error) {
            if (!(error instanceof ReadStoreUnavailableError) || state.stopped.signal.aborted) throw error;
            for (const slot of feed.slots) if (!slot.failed) slot.lastError = error.message;
            if (attempt === 0) log('warn', 'Read store unreachable; projections wait for it', { error: error.message });
            await sleep(Math.min(retryBaseMs * 2 ** attempt, retryMaxMs));
          }
        }
      });
      feed.applying = false;
      if (handOver) await serially(state, () => handOver(feed));
      checkReady(engine);
      logProgress(engine);
      // Reading and applying the log chains promises only: without a turn of the event loop between
      // batches, a catch-up would hold every request (/health included) until its end.
      await nextTurn();
    }
  } catch (error) {
    if (state.stopped.signal.aborted) return;
    const message = error instanceof Error ? error.message : String(error);
    log('error', 'Projections stopped: the log could not be read', { error: message });
    for (const slot of feed.slots) slot.fail(message);
  }
};

/** Ready once the main reader has caught up with the log, and the projections run elsewhere with the head this instance started at. */
export const checkReady = ({ state, config }: Engine): void => {
  if (state.ready || state.stopped.signal.aborted || !state.othersAtHead || !state.main || !feedCaughtUp(state.main)) return;
  state.ready = true;
  state.becomeReady();
  config.log('info', 'Read models ready', { position: state.main.applied ?? null });
};

const logProgress = (engine: Engine): void => {
  const { state } = engine;
  const now = Date.now();
  if (state.ready || now - state.lastProgressLog < progressLogEveryMs) return;
  state.lastProgressLog = now;
  const { position, head: last, eventsPerSecond, etaSeconds } = progress(engine);
  engine.config.log('info', 'Catching up with the log', { position, head: last, eventsPerSecond: Math.round(eventsPerSecond), etaSeconds });
};
