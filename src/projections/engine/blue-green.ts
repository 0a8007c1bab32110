import { readCheckpoint } from '../checkpoints.ts';
import type { Projection } from '../projection.ts';
import type { Engine, Feed } from './engine-state.ts';
import { feedCaughtUp, openFeed } from './feeds.ts';
import { collectOldGenerations } from './garbage.ts';
import { checkpointName, generationsCollection, storedName, type Generation, type GenerationsDocument } from './generations.ts';
import { ProjectionSlot } from './projection-slot.ts';

/*
 * The generations of the projections run here: the slots a projection needs once its lease is taken,
 * new generations built by readers of their own beside the live ones, handed over to the main reader
 * and swapped in once caught up, and the generations swapped out dropped after a grace period.
 */

export const saveGenerations = async ({ state, config }: Engine, doc: GenerationsDocument): Promise<void> => {
  state.generations.set(doc._id, doc);
  await config.base
    .collection<GenerationsDocument>(generationsCollection)
    .updateOne({ _id: doc._id }, { $set: { live: doc.live, next: doc.next, last: doc.last }, $setOnInsert: { rebuildRequestedAt: null } }, { upsert: true });
};

export const newSlot = async ({ config }: Engine, projection: Projection, generation: Generation): Promise<ProjectionSlot> => {
  const checkpoint = await readCheckpoint(config.base, checkpointName(projection.name, generation.generation));
  // No checkpoint does not mean no documents: on a store without transactions, a first batch cut short
  // (a crash, the connection lost) may have stored its documents and not its checkpoint. Only empty
  // collections are built as if from nothing; otherwise every document is looked for.
  const empty = checkpoint === null && (await collectionsEmpty(config.base, projection, generation));
  const slot = new ProjectionSlot(projection, generation, checkpoint?.position, checkpoint?.changes, empty);
  await projection.setup?.(slot.scoped(config.base));
  return slot;
};

const collectionsEmpty = async (base: Engine['config']['base'], projection: Projection, generation: Generation): Promise<boolean> => {
  for (const collection of projection.collections) {
    if ((await base.collection(storedName(collection, generation.generation)).findOne({})) !== null) return false;
  }
  return true;
};

/** The slots of a projection whose lease this instance just took: its live generation, and the next one if one is owed. */
export const prepare = async (engine: Engine, projection: Projection): Promise<{ live?: ProjectionSlot; next?: ProjectionSlot }> => {
  const { state, config } = engine;
  const doc: GenerationsDocument = state.generations.get(projection.name) ?? {
    _id: projection.name,
    live: null,
    next: null,
    last: 0,
    rebuildRequestedAt: null,
  };
  if (doc.live === null) {
    // The first build: the read model has nothing to serve before it, so it is built as the live one.
    const generation = { generation: doc.last + 1, version: projection.version };
    await saveGenerations(engine, { ...doc, live: generation, next: null, last: generation.generation });
    config.routes.route(projection.name, generation.generation);
    return { live: await newSlot(engine, projection, generation) };
  }
  config.routes.route(projection.name, doc.live.generation);
  const current = doc.live.version === projection.version;
  const owed = !current || Boolean(doc.next) || Boolean(doc.rebuildRequestedAt);
  let next: Generation | undefined;
  if (owed) {
    // A build under way keeps its generation (and resumes from its checkpoint) if it is of this version.
    next = doc.next?.version === projection.version ? doc.next : { generation: doc.last + 1, version: projection.version };
    await saveGenerations(engine, { ...doc, next, last: Math.max(doc.last, next.generation) });
    if (doc.rebuildRequestedAt) await clearRequest(engine, projection.name, doc.rebuildRequestedAt);
    config.log('info', current ? 'Rebuilding a read model beside the live one' : 'Building the new version of a read model beside the live one', {
      projection: projection.name,
      live: doc.live,
      next,
    });
  }
  if (!current) state.frozen.add(projection.name);
  return {
    ...(current && { live: await newSlot(engine, projection, doc.live) }),
    ...(next && { next: await newSlot(engine, projection, next) }),
  };
};

export const clearRequest = async ({ state, config }: Engine, name: string, requestedAt: string): Promise<void> => {
  await config.base
    .collection<GenerationsDocument>(generationsCollection)
    .updateOne({ _id: name, rebuildRequestedAt: requestedAt }, { $set: { rebuildRequestedAt: null } });
  const doc = state.generations.get(name);
  if (doc) state.generations.set(name, { ...doc, rebuildRequestedAt: null });
};

export const startBuilder = (engine: Engine, slots: ProjectionSlot[]): void => {
  const from = Math.min(...slots.map((slot) => slot.position ?? -1));
  engine.state.builders.add(openFeed(engine, 'builder', slots, from < 0 ? undefined : from, (feed) => mergeIfCaughtUp(engine, feed)));
};

/**
 * A builder that has caught up hands its slots over to the main reader, once it has applied at least
 * what the main reader has read: from then on the main reader's batches keep them up to date. A new
 * generation becomes the live one in the same step.
 */
export const mergeIfCaughtUp = async (engine: Engine, feed: Feed): Promise<void> => {
  const { state } = engine;
  const { main } = state;
  // Not in the middle of one of its batches (the builder's own are not exclusive): after it, it tries again.
  if (!main || !state.builders.has(feed) || feed.applying || !feedCaughtUp(feed)) return;
  const mainRead = main.reader.readPosition ?? main.applied ?? -1;
  if ((feed.applied ?? -1) < mainRead) return;
  // From here the slots are the main reader's alone: the builder applies nothing more, even a batch it
  // had already read ahead.
  state.builders.delete(feed);
  for (const slot of feed.slots) {
    if (slot.failed) continue;
    slot.position = Math.max(slot.position ?? -1, feed.applied ?? -1);
    if (state.building.get(slot.name) === slot) await swapIn(engine, slot);
    main.slots.push(slot);
    state.live.set(slot.name, slot);
  }
  void feed.reader.stop();
};

const swapIn = async (engine: Engine, slot: ProjectionSlot): Promise<void> => {
  const { state, config } = engine;
  const doc = state.generations.get(slot.name)!;
  const retired = doc.live;
  await saveGenerations(engine, { ...doc, live: slot.generation, next: null });
  config.routes.route(slot.name, slot.generation.generation);
  state.building.delete(slot.name);
  state.frozen.delete(slot.name);
  const old = state.live.get(slot.name);
  if (old && state.main) state.main.slots = state.main.slots.filter((candidate) => candidate !== old);
  config.log('info', 'Read model swapped to its new generation', { projection: slot.name, from: retired, to: slot.generation });
  const timer = setTimeout(() => void collect(engine), config.retiredGenerationGraceMs);
  timer.unref();
  state.timers.push(timer);
};

/**
 * Drops the old generations of the read models run here. Those another instance runs are its own to
 * drop, after its grace period: its requests may still be reading the generation it has just retired
 * (and a command beside the server met the lock of the server's own drop, and said so).
 */
export const collect = async ({ state, config }: Engine): Promise<void> => {
  const runHere = config.projections.filter((projection) => state.held.has(projection.name));
  if (runHere.length === 0) return;
  try {
    await collectOldGenerations(config.base, runHere, state.generations);
  } catch (error) {
    config.log('warn', 'Old generations of read models could not be dropped; next time', { error: (error as Error).message });
  }
};
