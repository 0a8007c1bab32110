import { setTimeout as sleep } from 'node:timers/promises';
import type { Projection } from '../projection.ts';
import { checkpointsCollection } from '../checkpoints.ts';
import { setupLeases } from '../projection-lease.ts';
import { collect, prepare, startBuilder } from './blue-green.ts';
import { serially, type Engine } from './engine-state.ts';
import { checkReady, openFeed } from './feeds.ts';
import { readGenerations } from './generations.ts';
import { holdLeases } from './leases.ts';
import type { ProjectionSlot } from './projection-slot.ts';
import { watchRegistry } from './registry-watch.ts';
import { refreshHead } from './status.ts';

/** Takes the leases, sets the read models up and resolves once those run here have caught up with the log. */
export const start = async (engine: Engine): Promise<void> => {
  const { state, config, shared } = engine;
  const { base, routes, projections, log } = config;
  if (state.started) return;
  await setupLeases(base);
  state.generations = await readGenerations(base);
  for (const projection of projections) routes.route(projection.name, state.generations.get(projection.name)?.live?.generation ?? null);
  await refreshHead(engine);
  holdLeases(engine);
  await Promise.all([...state.holders.values()].map((holder) => holder.ready));

  // From here on, a lease taken (by a renewal) is adopted after this first set-up, in order.
  state.started = true;
  await serially(state, async () => {
    const mine = projections.filter((projection) => state.held.has(projection.name));
    const slots: ProjectionSlot[] = [];
    const next: ProjectionSlot[] = [];
    for (const projection of mine) {
      const prepared = await prepare(engine, projection);
      if (prepared.live) slots.push(prepared.live);
      if (prepared.next) {
        next.push(prepared.next);
        state.building.set(projection.name, prepared.next);
      }
    }
    for (const slot of slots) state.live.set(slot.name, slot);
    // Nothing to apply: read from the head (a CLI beside a running server, say).
    const from = slots.length === 0 ? state.head : Math.min(...slots.map((slot) => slot.position ?? -1));
    log('info', 'Projections start reading the log', { from, head: state.head, projections: slots.map((slot) => slot.name) });
    followOthersToHead(engine);
    state.main = openFeed(engine, 'main', slots, from < 0 ? undefined : from);
    if (next.length > 0) startBuilder(engine, next);
  });
  await collect(engine);
  const poll = setInterval(() => void watchRegistry(engine), config.registryPollMs);
  poll.unref();
  state.timers.push(poll);
  const heads = setInterval(() => void (state.ready ? undefined : refreshHead(engine)), 1000);
  heads.unref();
  state.timers.push(heads);

  // Resolves once caught up, or once the main reader has ended (stopped, or failed).
  await Promise.race([state.whenReady, state.main!.done]);
  await shared.refresh().catch((error: unknown) => {
    state.sharedError = `checkpoint of the instance running it unreadable: ${(error as Error).message}`;
  });
};

/**
 * The projections another instance runs, followed up to the head of the log this instance started at
 * before it calls itself ready. Beside a holder still catching up, or one killed (its leases taken
 * here only once expired, then caught up by this instance), their read models are far behind the log:
 * served as ready, they would list what was long shipped or cancelled. A projection taken over here
 * meanwhile is caught up by this instance's own readers, the main one's catch-up included.
 */
const followOthersToHead = (engine: Engine): void => {
  const { state, config, shared } = engine;
  const elsewhere = config.projections.filter((projection) => !state.live.has(projection.name));
  if (elsewhere.length === 0) return;
  const head = state.head;
  const { signal } = state.stopped;
  state.othersAtHead = false;
  const atHead = async (projection: Projection): Promise<void> => {
    while (!signal.aborted) {
      try {
        await shared.reached(projection, head, signal);
        return;
      } catch {
        // The log unreadable for a moment: this instance stays not ready, and asks again.
        await sleep(1000, undefined, { signal }).catch(() => undefined);
      }
    }
  };
  void Promise.all(elsewhere.map(atHead)).then(() => {
    state.othersAtHead = true;
    checkReady(engine);
  });
};

/** Stops the readers, writes the checkpoints still owed and releases the leases at once. */
export const stop = async ({ state, config }: Engine): Promise<void> => {
  if (state.stopped.signal.aborted) return;
  state.stopped.abort();
  for (const timer of state.timers) clearInterval(timer);
  const feeds = [...(state.main ? [state.main] : []), ...state.builders];
  await Promise.all(feeds.map((feed) => feed.reader.stop()));
  await Promise.all(feeds.map((feed) => feed.done));
  // Whatever was queued before: the batch under way and the changes to the set of slots.
  await state.exclusive(async () => undefined);
  const slots = feeds.flatMap((feed) => feed.slots);
  // The checkpoints owed by projections that had nothing to write lately.
  const owed = slots
    .filter((slot) => !slot.failed)
    .map((slot) => slot.pendingCheckpoint())
    .filter((doc) => doc !== undefined);
  if (owed.length > 0) await config.base.writeDocuments([], { collection: checkpointsCollection, put: owed }).catch(() => undefined);
  // Released at once, so that another instance need not wait for the expiry.
  await Promise.all([...state.holders.values()].map((holder) => holder.stop()));
  state.holders.clear();
  for (const slot of slots) slot.notify();
  state.becomeReady();
};
