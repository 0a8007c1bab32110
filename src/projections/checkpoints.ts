import type { ReadStore } from './read-store/read-store.ts';

/**
 * Where each generation of a projection stands in the log: `{ _id: "<projection>_g<generation>", position }`,
 * the position up to which it has applied every event it reads. It is written in the same batch as the
 * documents it covers: on the embedded store in the same transaction (exactly once); on MongoDB after
 * them, so that a crash between the two replays a batch, which the idempotent updates absorb.
 */

export const checkpointsCollection = 'checkpoints';

export type Checkpoint = { _id: string; position: number };

export const readCheckpoint = async (store: ReadStore, name: string): Promise<number | undefined> => {
  const found = await store.collection<Checkpoint>(checkpointsCollection).findOne({ _id: name });
  return found?.position;
};
