import type { StoredEvent } from '../../../src/events/registry.ts';
import type { Projection } from '../../../src/projections/projection.ts';
import type { Document, ReadStore } from '../../../src/projections/read-store/read-store.ts';

/** Sets the projections up, then delivers each event to those reading its type, as the engine does. */
export const project = async (store: ReadStore, projections: readonly Projection[], events: readonly StoredEvent[]): Promise<void> => {
  for (const projection of projections) await projection.setup?.(store);
  await deliver(store, projections, events);
};

export const deliver = async (store: ReadStore, projections: readonly Projection[], events: readonly StoredEvent[]): Promise<void> => {
  for (const event of events) {
    for (const projection of projections) {
      if (projection.eventTypes.includes(event.type)) await projection.apply(event, store);
    }
  }
};

/** Every collection of the projections, documents sorted by _id. */
export const readModels = async (store: ReadStore, projections: readonly Projection[]): Promise<Record<string, Document[]>> => {
  const models: Record<string, Document[]> = {};
  for (const name of projections.flatMap((projection) => projection.collections)) {
    const documents = await store.collection(name).find({}).toArray();
    models[name] = documents.sort((a, b) => String(a._id).localeCompare(String(b._id)));
  }
  return models;
};
