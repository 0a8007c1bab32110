import { checkpointsCollection } from '../checkpoints.ts';
import type { Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import { retiredReadModels, type RetiredReadModel } from '../retired-read-models.ts';
import { checkpointName, generationsCollection, storedName, type GenerationsDocument } from './generations.ts';

/** Drops one generation of a read model: its collections, then its checkpoint. */
const dropGeneration = async (store: ReadStore, existing: ReadonlySet<string>, name: string, collections: readonly string[], generation: number) => {
  for (const collection of collections) if (existing.has(storedName(collection, generation))) await store.dropCollection(storedName(collection, generation));
  await store.collection(checkpointsCollection).deleteOne({ _id: checkpointName(name, generation) as never });
};

/** Drops what a read model kept before generations existed: its bare collections and checkpoint. */
const dropUngenerated = async (store: ReadStore, existing: ReadonlySet<string>, name: string, collections: readonly string[]) => {
  for (const collection of collections) if (existing.has(collection)) await store.dropCollection(collection);
  await store.collection(checkpointsCollection).deleteOne({ _id: name as never });
};

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
      if (!kept.has(generation)) await dropGeneration(store, existing, projection.name, projection.collections, generation);
    }
    await dropUngenerated(store, existing, projection.name, projection.collections);
  }
  for (const retired of retiredReadModels) await dropRetired(store, existing, retired, generations.get(retired.name));
};

/** Everything of a read model the service keeps no more; its registry entry last, so that an interrupted start finishes next time. */
const dropRetired = async (store: ReadStore, existing: ReadonlySet<string>, retired: RetiredReadModel, doc: GenerationsDocument | undefined): Promise<void> => {
  for (let generation = 0; generation <= (doc?.last ?? -1); generation++) await dropGeneration(store, existing, retired.name, retired.collections, generation);
  await dropUngenerated(store, existing, retired.name, retired.collections);
  if (doc) await store.collection(generationsCollection).deleteOne({ _id: retired.name as never });
};
