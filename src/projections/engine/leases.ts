import type { Projection } from '../projection.ts';
import { holdLease } from '../projection-lease.ts';
import { prepare, startBuilder } from './blue-green.ts';
import { serially, type Engine } from './engine-state.ts';
import { readGenerations } from './generations.ts';
import type { ProjectionSlot } from './projection-slot.ts';

/** Contends for the lease of every projection: the one taken runs here, the one lost stops here. */
export const holdLeases = (engine: Engine): void => {
  const { state, config } = engine;
  const { log, lease } = config;
  for (const projection of config.projections) {
    const holder = holdLease({
      store: config.base,
      projection: projection.name,
      owner: lease.owner,
      clock: config.clock,
      ttlMs: lease.ttlMs,
      replaceDeadHolders: lease.replaceDeadHolders,
      onAcquired: () => {
        log('info', 'Projection lease taken: the projection runs in this instance', { projection: projection.name, owner: lease.owner });
        // Not awaited: renewals wait for this callback, and a catch-up may outlast the lease.
        void adopt(engine, projection).catch((error: unknown) =>
          log('error', 'Projection could not start', { projection: projection.name, error: (error as Error).message }),
        );
      },
      onLost: async () => {
        // Released by stop(): nothing lost, and nothing to tell per projection.
        if (state.stopped.signal.aborted) return;
        log('info', 'Projection lease lost: the projection stops in this instance', { projection: projection.name, owner: lease.owner });
        await abandon(engine, projection);
      },
      onError: (error) => log('warn', 'Projection lease could not be taken or renewed', { projection: projection.name, error: (error as Error).message }),
    });
    state.holders.set(projection.name, holder);
  }
};

const adopt = async (engine: Engine, projection: Projection): Promise<void> => {
  const { state, config } = engine;
  state.held.add(projection.name);
  // Before the first set-up, which takes every lease held by then.
  if (!state.started) return;
  await serially(state, async () => {
    if (!state.held.has(projection.name) || state.stopped.signal.aborted || state.live.has(projection.name) || state.building.has(projection.name)) return;
    state.generations = await readGenerations(config.base);
    const { live: slot, next } = await prepare(engine, projection);
    // Behind the main reader: caught up by a reader of its own, then handed over.
    const catchUp = [slot, next].filter((candidate): candidate is ProjectionSlot => candidate !== undefined);
    if (next) state.building.set(projection.name, next);
    if (catchUp.length > 0) startBuilder(engine, catchUp);
  });
};

const abandon = async ({ state }: Engine, projection: Projection): Promise<void> => {
  state.held.delete(projection.name);
  // Stopping: the slots stay, to report where they stopped.
  if (state.stopped.signal.aborted) return;
  await serially(state, async () => {
    state.live.delete(projection.name);
    state.building.delete(projection.name);
    if (state.main) state.main.slots = state.main.slots.filter((slot) => slot.name !== projection.name);
    for (const feed of state.builders) {
      feed.slots = feed.slots.filter((slot) => slot.name !== projection.name);
      if (feed.slots.length === 0) {
        state.builders.delete(feed);
        void feed.reader.stop();
      }
    }
  });
};
