import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { EventStore } from '../events/store/event-store.ts';
import { createProjectionEngine } from './engine/engine.ts';
import { routedReadStore, type RoutedReadStore } from './engine/generations.ts';
import type { Projection } from './projection.ts';
import { compareValues } from './read-store/document-query.ts';
import { valueKey } from './read-store/document-values.ts';
import type { Document, ReadStore } from './read-store/read-store.ts';

export type ReadModelDifference = {
  collection: string;
  _id: unknown;
  /** missing: rebuilt but not live; extra: live but not rebuilt; different: both, unequal. */
  kind: 'missing' | 'extra' | 'different';
  live?: Document;
  rebuilt?: Document;
};

export type VerifyReport = {
  ok: boolean;
  /** Position of the log the scratch read models were built up to. */
  position: number | null;
  /** Every difference found, though `differences` lists at most `maxDifferences`. */
  differenceCount: number;
  differences: ReadModelDifference[];
};

export type VerifyOptions = {
  eventStore: EventStore;
  /** The live read models, as queries see them. */
  live: ReadStore;
  projections: readonly Projection[];
  /** An empty store for the replay (the embedded store in a scratch file, say); closed here. */
  scratch: ReadStore;
  maxDifferences?: number;
  /**
   * Resolves once the live read models have applied the log up to `position` (the server's
   * projections, say). Absent: they are taken to be there already.
   */
  liveReached?: (position: number) => Promise<void>;
};

/** How many times the replay catches up with events appended while it was compared, before it reports. */
const maxRounds = 5;

const pageSize = 1000;

/** The documents of a collection in `_id` order, a page at a time (memory stays bounded whatever the size). */
async function* inIdOrder(store: ReadStore, collection: string): AsyncGenerator<Document> {
  let after: unknown;
  for (;;) {
    const page = await store
      .collection(collection)
      .find(after === undefined ? {} : { _id: { $gt: after as never } }, { sort: { _id: 1 }, limit: pageSize })
      .toArray();
    yield* page;
    if (page.length < pageSize) return;
    after = page.at(-1)!._id;
  }
}

/** The documents that differed, by collection: compared again, alone, after the replay has caught up. */
type Suspects = Map<string, unknown[]>;

/** Beyond this many differences a round compares every collection again rather than keep their ids. */
const maxSuspects = 10_000;

/**
 * Replays the log into scratch read models, as a first start would, and compares them document by
 * document with the live ones: a difference means a projection is not a pure function of the log (or
 * the live store was changed behind its back). The two are compared at the same point of the log: the
 * live read models are first awaited up to the replay's position. A service at work (a lead mail
 * recorded as sent, a supplier's acknowledgement) changes documents while a large store is compared,
 * for minutes: the documents found different are then compared again, alone, once the replay has
 * caught up with what was appended meanwhile (a few rounds at most, each a matter of those documents
 * only), and only those still different are reported.
 */
export const verifyReadModels = async (options: VerifyOptions): Promise<VerifyReport> => {
  const { eventStore, live, projections, scratch } = options;
  const maxDifferences = options.maxDifferences ?? 100;
  const rebuilt: RoutedReadStore = routedReadStore(scratch, projections);
  /** Builds the scratch read models up to the log's head, or catches them up from their checkpoints. */
  const replay = async (): Promise<number | null> => {
    const engine = createProjectionEngine({
      eventStore,
      readStore: scratch,
      routes: rebuilt,
      projections,
      lease: { owner: `verify-${randomUUID()}`, ttlMs: 60_000 },
      log: () => undefined,
    });
    await engine.start();
    const { position } = engine.progress();
    await engine.stop();
    return position;
  };

  type Found = { differenceCount: number; differences: ReadModelDifference[]; suspects: Suspects | undefined };
  const tally = () => {
    const found: Found = { differenceCount: 0, differences: [], suspects: new Map() };
    const report = (difference: ReadModelDifference): void => {
      found.differenceCount += 1;
      if (found.differences.length < maxDifferences) found.differences.push(difference);
      if (found.suspects === undefined) return;
      if (found.differenceCount > maxSuspects) found.suspects = undefined;
      else if (found.suspects.has(difference.collection)) found.suspects.get(difference.collection)!.push(difference._id);
      else found.suspects.set(difference.collection, [difference._id]);
    };
    /** Both versions of a document (either may be missing), reported when they differ. */
    const pair = (collection: string, liveDoc: Document | undefined, rebuiltDoc: Document | undefined): void => {
      if (rebuiltDoc === undefined) report({ collection, _id: liveDoc!._id, kind: 'extra', live: liveDoc });
      else if (liveDoc === undefined) report({ collection, _id: rebuiltDoc._id, kind: 'missing', rebuilt: rebuiltDoc });
      else if (!isDeepStrictEqual(liveDoc, rebuiltDoc)) report({ collection, _id: liveDoc._id, kind: 'different', live: liveDoc, rebuilt: rebuiltDoc });
    };
    return { found, pair };
  };

  /** Every document of every collection, both stores walked in `_id` order. */
  const compareAll = async (): Promise<Found> => {
    const { found, pair } = tally();
    for (const collection of projections.flatMap((projection) => projection.collections)) {
      const liveDocs = inIdOrder(live, collection);
      const rebuiltDocs = inIdOrder(rebuilt, collection);
      let liveDoc = (await liveDocs.next()).value as Document | undefined;
      let rebuiltDoc = (await rebuiltDocs.next()).value as Document | undefined;
      while (liveDoc !== undefined || rebuiltDoc !== undefined) {
        const order = liveDoc === undefined ? 1 : rebuiltDoc === undefined ? -1 : compareValues(liveDoc._id, rebuiltDoc._id);
        pair(collection, order <= 0 ? liveDoc : undefined, order >= 0 ? rebuiltDoc : undefined);
        if (order <= 0) liveDoc = (await liveDocs.next()).value as Document | undefined;
        if (order >= 0) rebuiltDoc = (await rebuiltDocs.next()).value as Document | undefined;
      }
    }
    return found;
  };

  /** The suspects alone, read by `_id` from both stores. */
  const compareAgain = async (suspects: Suspects): Promise<Found> => {
    const { found, pair } = tally();
    for (const [collection, ids] of suspects) {
      for (let from = 0; from < ids.length; from += pageSize) {
        const page = ids.slice(from, from + pageSize);
        const byId = { _id: { $in: page as never[] } };
        const [liveDocs, rebuiltDocs] = await Promise.all([
          live.collection(collection).find(byId).toArray(),
          rebuilt.collection(collection).find(byId).toArray(),
        ]);
        const liveOf = new Map(liveDocs.map((doc) => [valueKey(doc._id), doc]));
        const rebuiltOf = new Map(rebuiltDocs.map((doc) => [valueKey(doc._id), doc]));
        for (const id of page) pair(collection, liveOf.get(valueKey(id)), rebuiltOf.get(valueKey(id)));
      }
    }
    return found;
  };

  try {
    let head = await eventStore.headPosition();
    let suspects: Suspects | undefined;
    for (let round = 1; ; round += 1) {
      const position = await replay();
      if (position !== null) await options.liveReached?.(position);
      const found = suspects === undefined ? await compareAll() : await compareAgain(suspects);
      const headNow = await eventStore.headPosition();
      if (found.differenceCount === 0 || headNow === head || round === maxRounds) {
        return { ok: found.differenceCount === 0, position, differenceCount: found.differenceCount, differences: found.differences };
      }
      head = headNow;
      suspects = found.suspects;
    }
  } finally {
    await scratch.close();
  }
};
