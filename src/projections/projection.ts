import type { DomainEventType, StoredEvent } from '../events/registry.ts';
import type { Document, Filter, ReadCollection, ReadStore, UpdateFilter } from './read-store/read-store.ts';
import { DuplicateKeyError } from './read-store/read-store.ts';

/**
 * A projection turns events into one or more read-model collections. `apply` must be idempotent:
 * applying an event a second time (a redelivery, a replay after a crash before the checkpoint was
 * saved) leaves the read model as after the first time. `applyOnce` below is the usual way. It must
 * have no side effect but its documents: it is run again by every rebuild.
 */
export type Projection = {
  /** Stable name: the key of its generations and checkpoints. */
  readonly name: string;
  /**
   * Changes whenever its documents would come out differently from the same events: a new version is
   * built into a new generation beside the live one, which keeps serving until the new one has caught up.
   */
  readonly version: number;
  /** The event types it reads; its subscription is filtered on them. */
  readonly eventTypes: readonly DomainEventType[];
  /** The collections it owns (dropped and rebuilt together). */
  readonly collections: readonly string[];
  /**
   * The part of the read model a document belongs to, for the answers kept per part (supplier-a's
   * listing is kept per supplier): the engine then records, per part, the position of the last batch
   * that changed one of its documents (see the engine's content versions). Undefined: the document is
   * in no part, and its change counts for every part.
   */
  changeKeyOf?(collection: string, document: Document): string | undefined;
  /** Creates indexes; called at start, idempotent. */
  setup?(store: ReadStore): Promise<void>;
  apply(event: StoredEvent, store: ReadStore): Promise<void>;
};

/** Every read-model document remembers the position of the last event applied to it. */
export type Tracked = { _id: unknown; _position: number };

/**
 * Applies `update` to the document `_id` only if it has not yet seen an event at or after `position`.
 * With `upsert`, a missing document is created; a document that already saw this event makes the
 * filter miss, the upsert then collides on `_id` and the duplicate is ignored: the event was applied.
 */
export const applyOnce = async <T extends Document>(
  collection: ReadCollection<T>,
  id: unknown,
  position: number,
  update: UpdateFilter<T>,
  options: { upsert?: boolean } = {},
): Promise<boolean> => {
  const filter = { _id: id, _position: { $lt: position } } as unknown as Filter<T>;
  // The filter makes it a raise; $max leaves the update's own $set as it is (no copy of its fields).
  const withPosition = Object.assign({}, update, { $max: Object.assign({}, update.$max, { _position: position }) }) as unknown as UpdateFilter<T>;
  try {
    const result = await collection.updateOne(filter, withPosition, { upsert: options.upsert ?? false });
    return result.modifiedCount + result.upsertedCount > 0;
  } catch (error) {
    if (error instanceof DuplicateKeyError || (error as { code?: unknown }).code === 11000) return false;
    throw error;
  }
};

/**
 * Evolves the document `_id` with a pure function of its current version (null when there is none),
 * the usual shape of a projection: `evolve` answers the document's fields, or null to change nothing.
 * Idempotent: a document that has already seen an event at or after `position` is left as it is. The
 * new version is stored whole, with `_position` set to the event's. Build it as an object literal: V8
 * keeps a literal a fast object, where one grown field by field turns slow to copy and serialise.
 */
export const evolveOnce = async <T extends Tracked>(
  collection: ReadCollection<T>,
  id: T['_id'],
  position: number,
  evolve: (current: T | null) => Omit<T, '_id' | '_position'> | null,
): Promise<boolean> => {
  const byId = { _id: id } as Filter<T>;
  const current = await collection.findOne(byId);
  if (current !== null && current._position >= position) return false;
  const next = evolve(current) as Record<string, unknown> | null;
  if (next === null) return false;
  let document: Record<string, unknown>;
  if (Object.hasOwn(next, '_position')) {
    // A version built from the current one (a spread of it) already has both fields: set in place.
    document = next;
    document._position = position;
  } else document = { _id: id, _position: position, ...next };
  await collection.replaceOne(byId, document as unknown as T, { upsert: true });
  return true;
};

/**
 * Inserts a document that is written once and never changed (keyed by what it records, e.g. an event
 * id); a second application meets the existing `_id` and changes nothing. Preferred to an upsert with
 * `$setOnInsert`, which some MongoDB-compatible servers apply without its null fields.
 */
export const insertOnce = async <T extends Document>(collection: ReadCollection<T>, document: T): Promise<boolean> => {
  try {
    await collection.insertOne(document);
    return true;
  } catch (error) {
    if (error instanceof DuplicateKeyError || (error as { code?: unknown }).code === 11000) return false;
    throw error;
  }
};
