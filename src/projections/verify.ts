import { isDeepStrictEqual } from 'node:util';
import type { EventStore } from '../events/store/event-store.ts';
import type { Projection } from './projection.ts';
import { createMemoryReadStore } from './read-store/memory-read-store.ts';
import type { Document, ReadStore } from './read-store/read-store.ts';
import { rebuildReadModels } from './rebuild.ts';

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
  /** Position of the log the read models were rebuilt up to. */
  position: number;
  /** Every difference found, though `differences` lists at most `maxDifferences`. */
  differenceCount: number;
  differences: ReadModelDifference[];
};

export type VerifyOptions = {
  eventStore: EventStore;
  live: ReadStore;
  projections: readonly Projection[];
  maxDifferences?: number;
};

/** A stable text key for any `_id` (number, string, compound object), independent of key order. */
const idKey = (id: unknown): string =>
  JSON.stringify(id, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );

const byId = async (store: ReadStore, collection: string): Promise<Map<string, Document>> => {
  const documents = await store.collection(collection).find({}).toArray();
  return new Map(documents.map((document) => [idKey(document._id), document]));
};

/**
 * Rebuilds the read models from the log into a scratch in-memory store and compares them, document
 * by document, with the live ones: a difference means a projection is not a pure function of the log
 * (or the live store was changed behind its back). Run it while the log is quiet and the live
 * projections have caught up; events appended meanwhile show up as differences.
 */
export const verifyReadModels = async (options: VerifyOptions): Promise<VerifyReport> => {
  const { eventStore, live, projections } = options;
  const maxDifferences = options.maxDifferences ?? 100;
  const scratch = createMemoryReadStore();
  const { position } = await rebuildReadModels({ eventStore, readStore: scratch, projections });

  const differences: ReadModelDifference[] = [];
  let differenceCount = 0;
  const report = (difference: ReadModelDifference): void => {
    differenceCount += 1;
    if (differences.length < maxDifferences) differences.push(difference);
  };

  for (const collection of projections.flatMap((projection) => projection.collections)) {
    const [liveDocuments, rebuiltDocuments] = await Promise.all([byId(live, collection), byId(scratch, collection)]);
    const keys = [...new Set([...liveDocuments.keys(), ...rebuiltDocuments.keys()])].sort();
    for (const key of keys) {
      const liveDocument = liveDocuments.get(key);
      const rebuilt = rebuiltDocuments.get(key);
      if (liveDocument === undefined && rebuilt !== undefined) report({ collection, _id: rebuilt._id, kind: 'missing', rebuilt });
      else if (rebuilt === undefined && liveDocument !== undefined) report({ collection, _id: liveDocument._id, kind: 'extra', live: liveDocument });
      else if (liveDocument !== undefined && rebuilt !== undefined && !isDeepStrictEqual(liveDocument, rebuilt)) {
        report({ collection, _id: liveDocument._id, kind: 'different', live: liveDocument, rebuilt });
      }
    }
  }
  await scratch.close();
  return { ok: differenceCount === 0, position, differenceCount, differences };
};
