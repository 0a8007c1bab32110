import type { ReadStore } from './read-store/read-store.ts';

/**
 * Where each generation of a projection stands in the log: `{ _id: "<projection>_g<generation>", position }`,
 * the position up to which it has applied every event it reads. It is written in the same batch as the
 * documents it covers: on the embedded store in the same transaction (exactly once); on MongoDB after
 * them, so that a crash between the two replays a batch, which the idempotent updates absorb.
 */

export const checkpointsCollection = 'checkpoints';

/**
 * With a projection that divides its read model into parts (Projection.changeKeyOf): the position of
 * the last batch that changed each part, and of the last that changed documents of no part, written
 * with the documents, so that every instance knows whether a part changed since an answer was kept.
 */
export type PartChanges = { parts: Record<string, number>; whole: number | null };

export type Checkpoint = { _id: string; position: number; changes?: PartChanges };

export const readCheckpoint = async (store: ReadStore, name: string): Promise<Checkpoint | null> =>
  store.collection<Checkpoint>(checkpointsCollection).findOne({ _id: name });
