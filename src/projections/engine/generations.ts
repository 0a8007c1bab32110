import type { Projection } from '../projection.ts';
import type { Document, ReadCollection, ReadStore } from '../read-store/read-store.ts';

/**
 * Each build of a projection is a generation: its documents live in collections of their own,
 * `<collection>_g<generation>`, beside those of the generation being served. The registry
 * (`read_model_generations`, one document per projection) names the live generation and the one being
 * built; swapping them is one write, after which every query reads the new collections.
 */

export const generationsCollection = 'read_model_generations';

export type Generation = {
  generation: number;
  /** The projection's version that builds it. */
  version: number;
};

export type GenerationsDocument = {
  _id: string;
  /** The generation queries read; null until the first one is built. */
  live: Generation | null;
  /** The generation being built beside it, if any. */
  next: Generation | null;
  /** The highest generation number handed out. */
  last: number;
  /** Set by `projections rebuild`: the instance running the projection builds a new generation. */
  rebuildRequestedAt: string | null;
};

export const storedName = (collection: string, generation: number): string => `${collection}_g${generation}`;

/** The key of a generation's checkpoint. */
export const checkpointName = (projection: string, generation: number): string => `${projection}_g${generation}`;

const registry = (store: ReadStore) => store.collection<GenerationsDocument>(generationsCollection);

export const readGenerations = async (store: ReadStore): Promise<Map<string, GenerationsDocument>> =>
  new Map((await registry(store).find({}).toArray()).map((doc) => [doc._id, doc]));

export const saveGenerations = async (store: ReadStore, doc: GenerationsDocument): Promise<void> => {
  await registry(store).replaceOne({ _id: doc._id }, doc, { upsert: true });
};

/** Asks the instance running each projection (this one or another) to build it anew beside the live generation. */
export const requestRebuild = async (store: ReadStore, projections: readonly string[], at: Date): Promise<void> => {
  for (const name of projections) {
    await registry(store).updateOne(
      { _id: name },
      { $set: { rebuildRequestedAt: at.toISOString() }, $setOnInsert: { live: null, next: null, last: 0 } },
      { upsert: true },
    );
  }
};

/**
 * The read store as queries see it: a projection's collection names stand for its live generation's
 * collections, looked up at each call so that a swap takes effect at once; other names (leases,
 * checkpoints) are the store's own.
 */
export type RoutedReadStore = ReadStore & {
  /** The generation queries read, per projection. */
  route(projection: string, generation: number | null): void;
  liveGeneration(projection: string): number | null;
};

export const routedReadStore = (base: ReadStore, projections: readonly Projection[]): RoutedReadStore => {
  const owner = new Map(projections.flatMap((projection) => projection.collections.map((collection) => [collection, projection.name] as const)));
  const live = new Map<string, number | null>();
  const handles = new Map<string, ReadCollection>();

  const stored = (collection: string): string => {
    const projection = owner.get(collection);
    if (projection === undefined) return collection;
    // Before its first generation is built, a read model reads as empty: generation 0 is never written.
    return storedName(collection, live.get(projection) ?? 0);
  };

  const routed = (collection: string): ReadCollection => {
    const target = () => base.collection(stored(collection));
    return {
      collectionName: collection,
      findOne: (filter, options) => target().findOne(filter, options),
      find: (filter, options) => ({ toArray: () => target().find(filter, options).toArray() }),
      countDocuments: (filter) => target().countDocuments(filter),
      insertOne: (doc) => target().insertOne(doc),
      updateOne: (filter, update, options) => target().updateOne(filter, update, options),
      updateMany: (filter, update, options) => target().updateMany(filter, update, options),
      replaceOne: (filter, replacement, options) => target().replaceOne(filter, replacement, options),
      deleteOne: (filter) => target().deleteOne(filter),
      deleteMany: (filter) => target().deleteMany(filter),
      bulkWrite: (operations, options) => target().bulkWrite(operations, options),
      aggregate: <R extends Document = Document>(pipeline: Document[]) => ({ toArray: () => target().aggregate<R>(pipeline).toArray() }),
      createIndex: (spec, options) => target().createIndex(spec, options),
    };
  };

  return {
    collection: <T extends Document = Document>(name: string) => {
      if (!owner.has(name)) return base.collection<T>(name);
      let handle = handles.get(name);
      if (!handle) {
        handle = routed(name);
        handles.set(name, handle);
      }
      return handle as unknown as ReadCollection<T>;
    },
    listCollectionNames: () => base.listCollectionNames(),
    writeDocuments: (writes, last) =>
      base.writeDocuments(
        writes.map((write) => ({ ...write, collection: stored(write.collection) })),
        last && { ...last, collection: stored(last.collection) },
      ),
    dropCollection: (name) => base.dropCollection(stored(name)),
    dropAll: () => base.dropAll(),
    releaseFreedBytes: async () => base.releaseFreedBytes?.(),
    close: () => base.close(),
    route: (projection, generation) => {
      live.set(projection, generation);
    },
    liveGeneration: (projection) => live.get(projection) ?? null,
  };
};
