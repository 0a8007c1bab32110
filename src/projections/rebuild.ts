import { decodeEvent } from '../events/catalogue/catalogue.ts';
import type { EventStore } from '../events/store/event-store.ts';
import { deleteCheckpoint, saveCheckpoint } from './checkpoints.ts';
import type { Projection } from './projection.ts';
import type { ReadStore } from './read-store/read-store.ts';

export type RebuildOptions = {
  eventStore: EventStore;
  readStore: ReadStore;
  projections: readonly Projection[];
  pageSize?: number;
};

export type RebuildReport = {
  /** The log was replayed up to this position (its head when the rebuild began); -1 for an empty log. */
  position: number;
  /** Events applied, per projection name. */
  counts: Record<string, number>;
};

/** An event a projection could not apply during a rebuild. */
export class RebuildError extends Error {
  readonly code = 'REBUILD_FAILED';
  constructor(
    readonly projection: string,
    readonly eventType: string,
    readonly position: number,
    options: { cause: unknown },
  ) {
    super(`Projection ${projection} failed on ${eventType} at position ${position}: ${(options.cause as Error)?.message ?? String(options.cause)}`, options);
    this.name = 'RebuildError';
  }
}

/**
 * Empties the projections' collections and checkpoints and replays the log through them: read in pages
 * and applied in order, without subscriptions. The projections' engine must not be running on the same
 * read store meanwhile. The log is replayed up to its head at the start; the checkpoints are left
 * there, so that an engine started afterwards goes on with the events appended since.
 */
export const rebuildReadModels = async (options: RebuildOptions): Promise<RebuildReport> => {
  const { eventStore, readStore, projections } = options;
  const pageSize = options.pageSize ?? 1000;
  for (const projection of projections) {
    for (const name of projection.collections) await readStore.collection(name).deleteMany({});
    await deleteCheckpoint(readStore, projection.name);
  }
  for (const projection of projections) await projection.setup?.(readStore);

  const readersOf = new Map<string, Projection[]>();
  for (const projection of projections) {
    for (const type of projection.eventTypes) readersOf.set(type, [...(readersOf.get(type) ?? []), projection]);
  }
  const counts = Object.fromEntries(projections.map((projection) => [projection.name, 0]));
  const head = await eventStore.headPosition();
  if (readersOf.size === 0 || head < 0) return { position: head, counts };

  let cursor: number | undefined;
  for (;;) {
    const page = await eventStore.readAll({
      ...(cursor === undefined ? {} : { fromPosition: cursor }),
      filter: { eventTypes: [...readersOf.keys()] },
      maxCount: pageSize,
    });
    for (const recorded of page) {
      if (recorded.position > head) break;
      const event = decodeEvent(recorded);
      for (const projection of readersOf.get(recorded.type) ?? []) {
        try {
          await projection.apply(event, readStore);
        } catch (cause) {
          throw new RebuildError(projection.name, recorded.type, recorded.position, { cause });
        }
        counts[projection.name] = (counts[projection.name] ?? 0) + 1;
      }
    }
    const last = page.at(-1);
    if (last === undefined || page.length < pageSize || last.position >= head) break;
    cursor = last.position;
  }
  for (const projection of projections) await saveCheckpoint(readStore, projection.name, head);
  return { position: head, counts };
};
