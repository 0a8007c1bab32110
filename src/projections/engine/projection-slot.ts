import { nextTurn, TimeSlice } from '../../concurrency/time-slice.ts';
import { decodeEvent, type StoredEvent } from '../../events/registry.ts';
import type { RecordedEvent } from '../../events/store/event-store.ts';
import { checkpointsCollection, type Checkpoint, type PartChanges } from '../checkpoints.ts';
import type { Projection } from '../projection.ts';
import { ReadStoreUnavailableError, type Document, type DocumentWrites, type ReadStore } from '../read-store/read-store.ts';
import { BatchStore } from './batch-store.ts';
import { valueKey } from '../read-store/document-values.ts';
import { checkpointName, storedName, type Generation } from './generations.ts';
import { WrittenKeys } from './written-keys.ts';

/**
 * A generation of a projection that this instance builds or keeps up to date: where it stands in the
 * log, and whether it failed. Its checkpoint is written with its documents: saved at every batch that
 * applied events of its types (whether or not they changed a document), and at least every
 * `idleCheckpointEvery` positions or second otherwise, so that a restart never re-reads much of the
 * log for a projection that had nothing to do.
 */
export class ProjectionSlot {
  /** Everything up to this position is applied (and written); undefined before the first event. */
  position: number | undefined;
  /** The end of the last batch that changed its documents (at first, its checkpoint: nothing changed them since). */
  lastChange: number | undefined;
  /** The position of a batch whose documents are being written (then committed), if one is. */
  writing: number | undefined;
  private saved: number | undefined;
  private savedAt = 0;
  lastError: string | null = null;
  failed = false;
  private readonly types: ReadonlySet<string>;
  private readonly listeners = new Set<() => void>();
  /** Built from empty collections in this process: the keys it wrote are known, so its batches skip looking for the others. */
  readonly written: WrittenKeys | undefined;
  /** With a projection divided into parts (Projection.changeKeyOf): the last batch that changed each part. */
  private parts: PartChanges | undefined;

  constructor(
    readonly projection: Projection,
    readonly generation: Generation,
    checkpoint: number | undefined,
    parts?: PartChanges,
    /** Its collections hold no document yet: every key it has not written is known to be absent. */
    empty = false,
  ) {
    this.position = checkpoint;
    this.lastChange = checkpoint;
    this.saved = checkpoint;
    this.types = new Set(projection.eventTypes);
    this.written = empty ? new WrittenKeys() : undefined;
    // Changes recorded before parts were: every part counts as changed at the checkpoint.
    if (projection.changeKeyOf) this.parts = parts ?? { parts: {}, whole: checkpoint ?? null };
  }

  /**
   * The end of the last batch that changed the documents of a part (or, without a part, of the read
   * model): what an answer kept from them is checked against.
   */
  lastChangeOf(part?: string): number | undefined {
    if (part === undefined || !this.parts) return this.lastChange;
    const changes = [this.parts.parts[part], this.parts.whole].filter((position): position is number => position !== null && position !== undefined);
    return changes.length === 0 ? undefined : Math.max(...changes);
  }

  /** The parts' changes once a batch ending at `position` has written `writes` (nothing is changed here). */
  private partsAfter(writes: readonly DocumentWrites[], position: number): PartChanges | undefined {
    const keyOf = this.projection.changeKeyOf;
    if (!this.parts || !keyOf || writes.length === 0) return this.parts;
    const parts = { ...this.parts.parts };
    let whole = this.parts.whole;
    for (const { collection, put, insert, remove } of writes) {
      for (const document of [...put, ...(insert ?? [])]) {
        const part = keyOf(collection, document);
        if (part === undefined) whole = position;
        else parts[part] = position;
      }
      if ((remove ?? []).length > 0) whole = position;
    }
    return { parts, whole };
  }

  /** Notes the documents a committed batch wrote. */
  wrote(writes: readonly DocumentWrites[]): void {
    if (!this.written) return;
    for (const { collection, put, insert } of writes) {
      for (const doc of put) this.written.add(collection, valueKey(doc._id));
      for (const doc of insert ?? []) this.written.add(collection, valueKey(doc._id));
    }
  }

  get name(): string {
    return this.projection.name;
  }

  get checkpointId(): string {
    return checkpointName(this.projection.name, this.generation.generation);
  }

  /** The stored collection of one of the projection's collections, in this generation. */
  readonly stored = (collection: string): string =>
    this.projection.collections.includes(collection) ? storedName(collection, this.generation.generation) : collection;

  /** The read store as the projection's setup sees it: its collection names stand for this generation's. */
  scoped(base: ReadStore): ReadStore {
    return { ...base, collection: (name) => base.collection(this.stored(name)) } as ReadStore;
  }

  reads(type: string): boolean {
    return this.types.has(type);
  }

  /** Resolves once the slot has applied up to `position`, or stops (failed, removed): true if it got there. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  fail(message: string): void {
    this.failed = true;
    this.lastError = message;
    this.notify();
  }

  /**
   * The checkpoint to write with a batch ending at `position` that wrote `writes` after applying
   * `applied` events of its types, if it is due. A batch that applied some of its events is saved even
   * when they changed nothing (a business sale to the e-reporting): a command's write waits for it, in
   * another instance by this checkpoint; one that applied none is saved only now and then.
   */
  checkpointFor(position: number, writes: readonly DocumentWrites[], now: number, applied = 0): Document | undefined {
    const changed = writes.length > 0 || applied > 0;
    const due = changed || this.saved === undefined || position - this.saved >= idleCheckpointEvery || now - this.savedAt >= idleCheckpointMs;
    const changes = this.partsAfter(writes, position);
    return due ? ({ _id: this.checkpointId, position, ...(changes && { changes }) } satisfies Checkpoint) : undefined;
  }

  committed(position: number, checkpointWritten: boolean, now: number, writes: readonly DocumentWrites[]): void {
    const changed = writes.length > 0;
    this.parts = this.partsAfter(writes, position);
    // Never back: a slot is applied by one reader at a time, and what it applied stays applied.
    this.position = Math.max(this.position ?? -1, position);
    if (changed) this.lastChange = position;
    if (checkpointWritten) {
      this.saved = position;
      this.savedAt = now;
    }
    this.notify();
  }

  /** The checkpoint still owed after the last batch (written when the engine stops). */
  pendingCheckpoint(): Document | undefined {
    if (this.position === undefined || this.position === this.saved) return undefined;
    return { _id: this.checkpointId, position: this.position, ...(this.parts && { changes: this.parts }) } satisfies Checkpoint;
  }
}

const idleCheckpointEvery = 1000;
const idleCheckpointMs = 1000;

export type DecodedEvent = { recorded: RecordedEvent; event?: StoredEvent; error?: unknown };

export const decodeBatch = (batch: readonly RecordedEvent[]): DecodedEvent[] =>
  batch.map((recorded) => {
    try {
      return { recorded, event: decodeEvent(recorded) };
    } catch (error) {
      return { recorded, error };
    }
  });

export type SlotFailure = { slot: ProjectionSlot; at: RecordedEvent; error: unknown };

export type BatchOutcome = { applied: number; failures: SlotFailure[] };

/**
 * Applies a batch to each slot through a batch store of its own, then writes every slot's documents
 * and checkpoints in one `writeDocuments` (one transaction on the embedded store). A new generation
 * built beside the live one (`whole: false`), which no request reads yet, is written in pieces of at
 * most `documentsPerPiece` documents with a turn of the event loop between them, its checkpoints with
 * the last: on the embedded store one transaction of a 2,000-event batch holds every request for as
 * long as it takes. A crash between two pieces leaves documents without their checkpoint, which the
 * next start handles as it does on MongoDB (their `_position` keeps them from being applied twice). A slot whose
 * projection throws (or whose event cannot be decoded) keeps what the events before that one did and
 * stops there, its checkpoint just before it: skipping the event would leave its read model silently
 * wrong. The other slots go on. An unreachable store fails the whole batch (ReadStoreUnavailableError):
 * the caller tries it again, and the projections' idempotent updates make that safe.
 */
export const applyBatch = async (
  base: ReadStore,
  slots: readonly ProjectionSlot[],
  batch: readonly DecodedEvent[],
  now: () => number,
  { whole }: { whole: boolean },
): Promise<BatchOutcome> => {
  const last = batch.at(-1)?.recorded.position;
  if (last === undefined) return { applied: 0, failures: [] };
  const at = now();
  // The slots side by side: each reads and writes only its own documents until the batch is written,
  // and on MongoDB their reads are round trips that overlap.
  const outcomes = await Promise.all(
    slots.filter((slot) => !slot.failed && (slot.position === undefined || slot.position < last)).map((slot) => applyToSlot(base, slot, batch)),
  );
  const writes: DocumentWrites[] = [];
  const checkpoints: Document[] = [];
  const done: { slot: ProjectionSlot; position: number; checkpoint: boolean; changes: DocumentWrites[] }[] = [];
  const failures: SlotFailure[] = [];
  let applied = 0;
  for (const { slot, changes, reached, failure, count } of outcomes) {
    applied += count;
    writes.push(...changes);
    if (failure) failures.push(failure);
    if (reached === undefined || (slot.position !== undefined && reached <= slot.position)) continue;
    const checkpoint = slot.checkpointFor(reached, changes, at, count);
    if (checkpoint) checkpoints.push(checkpoint);
    done.push({ slot, position: reached, checkpoint: checkpoint !== undefined, changes });
  }
  // While its documents and checkpoint are being written, a slot that changed documents answers a
  // content version no kept answer carries: on MongoDB the checkpoint (which another instance reads,
  // and a command's answer waits for) is visible before this process has marked the batch committed.
  const writing = done.filter(({ changes }) => changes.length > 0);
  for (const { slot, position } of writing) slot.writing = position;
  try {
    const last = checkpoints.length > 0 ? { collection: checkpointsCollection, put: checkpoints } : undefined;
    const pieces = whole ? [writes] : piecesOf(writes, documentsPerPiece);
    for (const [index, piece] of pieces.entries()) {
      const final = index === pieces.length - 1;
      if (piece.length > 0 || (final && last)) await base.writeDocuments(piece, final ? last : undefined);
      if (!final) await nextTurn();
    }
  } catch (error) {
    for (const { slot } of writing) slot.writing = undefined;
    throw error;
  }
  // A customer's data was scrubbed: no byte of what it replaced stays in the store's files.
  if (batch.some(({ recorded }) => recorded.type === 'CustomerErased')) await base.releaseFreedBytes?.();
  for (const { slot, position, checkpoint, changes } of done) {
    slot.wrote(changes);
    slot.committed(position, checkpoint, at, changes);
    slot.writing = undefined;
  }
  for (const { slot, at: event, error } of failures) {
    const message = error instanceof Error ? error.message : String(error);
    slot.fail(`${event.type} at position ${event.position}: ${message}`);
  }
  return { applied, failures };
};

const documentsPerPiece = 1_000;

/** The writes cut into pieces of at most `size` documents (put, inserted or removed), in their order. */
const piecesOf = (writes: readonly DocumentWrites[], size: number): DocumentWrites[][] => {
  const pieces: DocumentWrites[][] = [[]];
  let room = size;
  for (const { collection, put, insert = [], remove = [] } of writes) {
    const parts: ['put' | 'insert' | 'remove', readonly unknown[]][] = [
      ['put', put],
      ['insert', insert],
      ['remove', remove],
    ];
    for (const [kind, all] of parts) {
      for (let from = 0; from < all.length;) {
        if (room === 0) {
          pieces.push([]);
          room = size;
        }
        const taken = all.slice(from, from + room);
        from += taken.length;
        room -= taken.length;
        pieces.at(-1)!.push({ collection, put: [], [kind]: taken } as DocumentWrites);
      }
    }
  }
  return pieces;
};

type SlotOutcome = { slot: ProjectionSlot; changes: DocumentWrites[]; reached: number | undefined; failure?: SlotFailure; count: number };

/** The batch's events applied to one slot, through a batch store of its own: its changes, and how far it got. */
const applyToSlot = async (base: ReadStore, slot: ProjectionSlot, batch: readonly DecodedEvent[]): Promise<SlotOutcome> => {
  const store = new BatchStore(base, slot.stored, slot.written);
  // Where the slot stood when the batch began: its documents are read as they were then, so the events
  // after it are all applied, even should its position move meanwhile.
  const from = slot.position;
  let count = 0;
  // A batch (up to 2,000 events) could take seconds on the embedded store: the requests a server serves
  // while it catches up or rebuilds a read model beside the live one get a turn between its events.
  // Nothing is written before the batch's end, so they see the read models as they stood before it.
  const slice = new TimeSlice();
  for (let i = 0; i < batch.length; i++) {
    const { recorded, event, error } = batch[i]!;
    if ((from !== undefined && recorded.position <= from) || !slot.reads(recorded.type)) continue;
    if (slice.spent) await slice.nextTurn();
    const mark = store.mark();
    try {
      if (error !== undefined) throw error;
      await slot.projection.apply(event!, store);
      count += 1;
    } catch (cause) {
      if (cause instanceof ReadStoreUnavailableError) throw cause;
      store.rollbackTo(mark);
      // Everything up to the event before the failed one is applied.
      const reached = i === 0 ? undefined : batch[i - 1]!.recorded.position;
      return { slot, changes: store.writes(), reached, failure: { slot, at: recorded, error: cause }, count };
    }
  }
  return { slot, changes: store.writes(), reached: batch.at(-1)!.recorded.position, count };
};
