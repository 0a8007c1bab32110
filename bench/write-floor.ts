import { performance } from 'node:perf_hooks';
import { allProjections } from '../src/projections/all-projections.ts';
import { routedReadStore, storedName } from '../src/projections/engine/generations.ts';
import type { Document, ReadStore } from '../src/projections/read-store/read-store.ts';

/**
 * The floor of a build: every document of the built read models written once into an empty store with
 * the same indexes, through the store's batch write (the engine's path), 5,000 documents a transaction,
 * and nothing else: no log to read, no event to decode, no projection to run, no document written twice
 * (only the writes are timed; the pages are read from the built store between them). A build can go no
 * faster than this on the same machine, so its events/s is the ceiling of the build rate with these read
 * models.
 */
export const measureWriteFloor = async (built: ReadStore, empty: ReadStore): Promise<{ documents: number; seconds: number }> => {
  const projections = allProjections({ timezone: 'Europe/Paris' });
  // The built read models are generation 1 of each projection (a first build): the same names and indexes.
  const routed = routedReadStore(empty, projections);
  for (const projection of projections) routed.route(projection.name, 1);
  for (const projection of projections) await projection.setup?.(routed);
  const collections = projections.flatMap((projection) => projection.collections.map((collection) => storedName(collection, 1)));

  let documents = 0;
  let writing = 0;
  for (const collection of collections) {
    const source = built.collection(collection);
    // Paged by _id, so that 100,000 orders' read models need not fit in memory at once.
    for (let after: unknown = undefined; ;) {
      const filter = (after === undefined ? {} : { _id: { $gt: after } }) as Document;
      const page = await source.find(filter, { sort: { _id: 1 }, limit: 5000 }).toArray();
      if (page.length === 0) break;
      const startedAt = performance.now();
      await empty.writeDocuments([{ collection, put: [], insert: page }]);
      writing += performance.now() - startedAt;
      documents += page.length;
      after = page.at(-1)!._id;
    }
  }
  return { documents, seconds: writing / 1000 };
};
