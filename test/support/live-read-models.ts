import { allProjections } from '../../src/projections/all-projections.ts';
import { readGenerations, storedName } from '../../src/projections/engine/generations.ts';
import type { ReadStore } from '../../src/projections/read-store/read-store.ts';

/**
 * The name under which a read model's collection is stored in its live generation, as the store
 * holds it now (a spec reading or changing the embedded file directly); undefined before any is live.
 */
export const liveCollectionName = async (store: ReadStore, collection: string): Promise<string | undefined> => {
  const projection = allProjections({ timezone: 'UTC' }).find((candidate) => candidate.collections.includes(collection))!;
  const generation = (await readGenerations(store)).get(projection.name)?.live?.generation;
  return generation === undefined ? undefined : storedName(collection, generation);
};
