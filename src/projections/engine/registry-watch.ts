import { clearRequest, mergeIfCaughtUp, newSlot, saveGenerations, startBuilder } from './blue-green.ts';
import { serially, type Engine } from './engine-state.ts';
import { readGenerations, requestRebuild as requestInRegistry } from './generations.ts';
import type { ProjectionSlot } from './projection-slot.ts';

/**
 * The registry, read again now and then: rebuilds requested of the projections run here, and the
 * swaps made by the instances running the others. The checkpoints of those are read in the same turn.
 */
export const watchRegistry = async (engine: Engine): Promise<void> => {
  const { state, config, shared } = engine;
  if (state.stopped.signal.aborted) return;
  try {
    const read = await readGenerations(config.base);
    await serially(state, async () => {
      for (const feed of state.builders) await mergeIfCaughtUp(engine, feed);
      state.generations = read;
      // The new generations asked for together are built by one reader of the log: each reader reads and
      // decodes every event from the start, which for a whole rebuild costs more than applying them.
      const requested: ProjectionSlot[] = [];
      for (const projection of config.projections) {
        const doc = read.get(projection.name);
        if (!state.held.has(projection.name)) {
          // Another instance runs it: follow its swaps.
          config.routes.route(projection.name, doc?.live?.generation ?? null);
          continue;
        }
        if (doc?.rebuildRequestedAt && !state.building.has(projection.name) && doc.live) {
          const next = { generation: doc.last + 1, version: projection.version };
          await saveGenerations(engine, { ...doc, next, last: next.generation });
          await clearRequest(engine, projection.name, doc.rebuildRequestedAt);
          config.log('info', 'Rebuilding a read model beside the live one', { projection: projection.name, live: doc.live, next });
          const slot = await newSlot(engine, projection, next);
          state.building.set(projection.name, slot);
          requested.push(slot);
        }
      }
      if (requested.length > 0) startBuilder(engine, requested);
    });
    await shared.refresh();
    state.sharedError = null;
  } catch (error) {
    state.sharedError = `checkpoint of the instance running it unreadable: ${(error as Error).message}`;
  }
};

/** Asks for new builds of the projections (all by default), and acts on the request at once if they run here. */
export const requestRebuild = async (
  engine: Engine,
  names: readonly string[] = engine.config.projections.map((projection) => projection.name),
): Promise<void> => {
  const { config } = engine;
  for (const name of names) if (!config.byName.has(name)) throw new Error(`No projection is named ${name}`);
  await requestInRegistry(config.base, names, config.clock.now());
  await watchRegistry(engine);
};
