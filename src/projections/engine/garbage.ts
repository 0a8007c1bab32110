import { checkpointsCollection } from '../checkpoints.ts';
import type { Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import { retiredReadModels, type RetiredReadModel } from '../retired-read-models.ts';
import { checkpointName, generationsCollection, storedName, type GenerationsDocument } from './generations.ts';

/**
 * Drops what no generation in use needs any more: the collections and checkpoints of generations that
 * are neither live nor being built, and those of a read model from before generations existed (its
 * bare collection names), once a generation of it is live; and everything of a read model the
 * service no longer keeps (retired-read-models.ts).
 */
export const collectOldGenerations = async (
  store: ReadStore,
  projections: readonly Projection[],
  generations: ReadonlyMap<string, GenerationsDocument>,
): Promise<void> => {
  const existing = new Set(await store.listCollectionNames());
  for (const projection of projections) {
    const doc = generations.get(projection.name);
    if (!doc?.live) continue;
    const kept = new Set([doc.live.generation, ...(doc.next ? [doc.next.generation] : [])]);
    for (let generation = 0; generation <= doc.last; generation++) {
      if (kept.has(generation)) continue;
      for (const collection of projection.collections) {
        if (existing.has(storedName(collection, generation))) await store.dropCollection(storedName(collection, generation));
      }
      await store.collection(checkpointsCollection).deleteOne({ _id: checkpointName(projection.name, generation) as never });
    }
    for (const collection of projection.collections) if (existing.has(collection)) await store.dropCollection(collection);
    await store.collection(checkpointsCollection).deleteOne({ _id: projection.name as never });
  }
  for (const retired of retiredReadModels) await dropRetired(store, existing, retired, generations.get(retired.name));
};

const dropRetired = async (store: ReadStore, existing: ReadonlySet<string>, retired: RetiredReadModel, doc: GenerationsDocument | undefined): Promise<void> => {
  for (const collection of retired.collections) {
    for (let generation = 0; generation <= (doc?.last ?? -1); generation++) {
      if (existing.has(storedName(collection, generation))) await store.dropCollection(storedName(collection, generation));
    }
    if (existing.has(collection)) await store.dropCollection(collection);
  }
  if (doc === undefined) return;
  const checkpoints = store.collection(checkpointsCollection);
  for (let generation = 0; generation <= doc.last; generation++) await checkpoints.deleteOne({ _id: checkpointName(retired.name, generation) as never });
  await checkpoints.deleteOne({ _id: retired.name as never });
  // Last: a start interrupted before this drops what is left next time.
  await store.collection(generationsCollection).deleteOne({ _id: retired.name as never });
};
