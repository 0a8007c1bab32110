import type { ReadStore } from './read-store/read-store.ts';

/**
 * Where each projection stands in the log: `{ _id: projection name, position }`, the position up to
 * which it has applied every event it reads. The checkpoint may lag behind the read model (it is saved
 * in batches while catching up); the projections' idempotent updates make the replay of that lag, after
 * a restart, harmless.
 */

export const checkpointsCollection = 'checkpoints';

export type Checkpoint = { _id: string; position: number };

export const readCheckpoint = async (store: ReadStore, name: string): Promise<number | undefined> => {
  const found = await store.collection<Checkpoint>(checkpointsCollection).findOne({ _id: name });
  return found?.position;
};

export const saveCheckpoint = async (store: ReadStore, name: string, position: number): Promise<void> => {
  await store.collection<Checkpoint>(checkpointsCollection).updateOne({ _id: name }, { $set: { position } }, { upsert: true });
};

export const deleteCheckpoint = async (store: ReadStore, name: string): Promise<void> => {
  await store.collection<Checkpoint>(checkpointsCollection).deleteOne({ _id: name });
};

export type CheckpointPolicy = {
  /** While catching up, save after this many applied events... */
  everyEvents: number;
  /** ...or once this long has passed since the last save, whichever comes first. */
  everyMs: number;
};

export const defaultCheckpointPolicy: CheckpointPolicy = { everyEvents: 500, everyMs: 250 };

/**
 * Saves one projection's checkpoint: in batches while it catches up (one write per event would double
 * the cost of a replay), at once when it is live. Writes are chained so that they land in order.
 */
export class CheckpointWriter {
  private saved: number | undefined;
  private latest: number | undefined;
  private pending = 0;
  private lastSaveAt = Date.now();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: ReadStore,
    private readonly name: string,
    initial: number | undefined,
    private readonly policy: CheckpointPolicy = defaultCheckpointPolicy,
  ) {
    this.saved = initial;
    this.latest = initial;
  }

  /** Records that every event up to `position` is applied; saves now when `live` or when the batch is full. */
  advance(position: number, live: boolean): Promise<void> {
    this.latest = position;
    this.pending += 1;
    const due = live || this.pending >= this.policy.everyEvents || Date.now() - this.lastSaveAt >= this.policy.everyMs;
    return due ? this.flush() : Promise.resolve();
  }

  /** Saves the latest position if it is not saved yet. */
  flush(): Promise<void> {
    const write = this.chain.then(async () => {
      const position = this.latest;
      if (position === undefined || position === this.saved) return;
      this.pending = 0;
      this.lastSaveAt = Date.now();
      await saveCheckpoint(this.store, this.name, position);
      this.saved = position;
    });
    // A failed write is reported to its caller; the next flush tries again.
    this.chain = write.catch(() => undefined);
    return write;
  }
}
