import { setMaxListeners } from 'node:events';
import type { Projection } from '../projection.ts';
import type { Engine } from './engine-state.ts';
import type { ProjectionSlot } from './projection-slot.ts';
import { statusOf } from './status.ts';

/** How long read-your-writes waits for a batch before it looks in the log itself. */
const firstWaitMs = 100;
/** How often a wait checks again whether the slot's reader has gone idle. */
const idleCheckMs = 50;

/**
 * True once every projection reading one of `types` has applied the log up to `position`; false when
 * one of them has stopped or the wait timed out (the write itself succeeded).
 */
export const waitFor = async (engine: Engine, position: number, types?: readonly string[]): Promise<boolean> => {
  const { projections, log, readYourWritesTimeoutMs: timeoutMs } = engine.config;
  const concerned = types === undefined ? projections : projections.filter((projection) => projection.eventTypes.some((type) => types.includes(type)));
  if (concerned.length === 0) return true;
  const abort = new AbortController();
  // One listener per projection concerned, each removed when its wait ends: more than Node's default
  // of 10 is expected here, not a leak.
  setMaxListeners(concerned.length + 1, abort.signal);
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const results = await Promise.all(concerned.map(async (projection) => ({ projection, ok: await reached(engine, projection, position, abort.signal) })));
    const lagging = results.filter((result) => !result.ok).map((result) => statusOf(engine, result.projection));
    if (lagging.length === 0) return true;
    log('warn', 'Read models not up to date after a write; answering anyway', { position, types, timeoutMs, lagging });
    return false;
  } catch (error) {
    // The write is already recorded: a failure to observe the read models must not fail the command.
    log('warn', 'Could not wait for the read models after a write', { position, types, error: (error as Error).message });
    return false;
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Follows the projection wherever it runs while the wait lasts: a lease changing hands (this instance
 * taking it over from a dead one, or losing it) or a new generation swapped in moves the wait to
 * where the projection now is, rather than ending it.
 */
const reached = async (engine: Engine, projection: Projection, position: number, signal: AbortSignal): Promise<boolean> => {
  const { state, shared } = engine;
  while (!signal.aborted && !state.stopped.signal.aborted) {
    const slot = state.live.get(projection.name);
    if (slot) {
      if (await reachedHere(engine, slot, position, signal)) return true;
      // Failed, timed out, or stopping: no use waiting on.
      if (slot.failed || state.live.get(projection.name) === slot) return false;
      continue;
    }
    // An older version served as it is while the new one is built: nothing here will change it.
    if (state.frozen.has(projection.name) && state.held.has(projection.name)) return true;
    // Ends when reached, or when the projection comes to run here.
    if (await shared.reached(projection, position, signal)) return true;
  }
  return false;
};

/**
 * Every batch moves a slot to the batch's last event, whatever its type: once a batch reaches
 * `position`, the slot has applied everything up to it. Only when the write's last event is of a type
 * no projection reads does no batch reach it: then the slot has applied everything up to `position`
 * once its next event, if any, lies beyond it. The log is read for that only when the slot's reader
 * has nothing left to apply, after a first wait, once per position of the slot (waiters whose writes
 * came before a read share it): every read is a round trip to EventStoreDB, and one cancelled stream.
 */
const reachedHere = async (engine: Engine, slot: ProjectionSlot, position: number, signal: AbortSignal): Promise<boolean> => {
  const { state } = engine;
  const since = ++state.waits;
  let checked: number | undefined | null = null;
  let waited = false;
  while (!signal.aborted && !slot.failed && !state.stopped.signal.aborted && state.live.get(slot.name) === slot) {
    const applied = slot.position;
    if (applied !== undefined && applied >= position) return true;
    if (waited && applied !== checked && feedIdle(engine, slot)) {
      checked = applied;
      const next = await nextEventOf(engine, slot, applied, since);
      if (next === undefined || next > position) return true;
      // The slot may have moved during the read, and told it to nobody yet waiting.
      if (slot.position !== applied) continue;
    }
    await new Promise<void>((resolve) => {
      const stop = slot.onChange(wake);
      const timer = setTimeout(wake, waited ? idleCheckMs : firstWaitMs);
      signal.addEventListener('abort', wake, { once: true });
      function wake(): void {
        stop();
        clearTimeout(timer);
        signal.removeEventListener('abort', wake);
        resolve();
      }
    });
    waited = true;
  }
  return false;
};

/** The position of the slot's next event after `applied` in the log (undefined: none yet); one look serves the waits begun before it. */
const nextEventOf = ({ state, config }: Engine, slot: ProjectionSlot, applied: number | undefined, since: number): Promise<number | undefined> => {
  const look = state.looks.get(slot);
  if (look && look.applied === applied && look.from >= since) return look.next;
  const next = config.eventStore
    .readAll({ ...(applied === undefined ? {} : { fromPosition: applied }), filter: { eventTypes: slot.projection.eventTypes }, maxCount: 1 })
    .then(([event]) => event?.position);
  state.looks.set(slot, { applied, from: state.waits, next });
  next.catch(() => state.looks.delete(slot));
  return next;
};

/** The slot's reader has applied all it has read: if the slot has not reached a position yet, no batch will take it there. */
const feedIdle = ({ state }: Engine, slot: ProjectionSlot): boolean => {
  const feed = state.main?.slots.includes(slot) ? state.main : [...state.builders].find((candidate) => candidate.slots.includes(slot));
  return feed === undefined || (!feed.applying && feed.reader.queued === 0);
};
