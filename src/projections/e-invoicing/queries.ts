import type { Filter, ReadStore } from '../read-store/read-store.ts';
import { platformDocumentsCollection, type PlatformDocument } from './platform-document.ts';

const documents = (store: ReadStore) => store.collection<PlatformDocument>(platformDocumentsCollection);

/** The documents of `from` on (all when null) not yet sent (pending or retrying), oldest first: the outbox's candidates. */
export const unsentPlatformDocuments = (store: ReadStore, from: string | null, limit: number): Promise<PlatformDocument[]> =>
  documents(store)
    .find({ 'transmission.status': { $in: ['pending', 'retrying'] }, ...(from && { date: { $gte: from } }) } as Filter<PlatformDocument>, {
      sort: { date: 1, _id: 1 },
      limit,
    })
    .toArray();

/** The documents sent whose lifecycle on the platform is still going on, oldest first: the outbox reads their status. */
export const sentPlatformDocuments = (store: ReadStore, limit: number): Promise<PlatformDocument[]> =>
  documents(store)
    .find({ 'transmission.status': 'sent', lifecycleOver: false } as Filter<PlatformDocument>, { sort: { date: 1, _id: 1 }, limit })
    .toArray();

/** The latest documents owed to the platform, newest first, optionally of one kind. */
export const platformDocuments = (store: ReadStore, page: { kind?: PlatformDocument['kind']; limit: number }): Promise<PlatformDocument[]> =>
  documents(store)
    .find((page.kind ? { kind: page.kind } : {}) as Filter<PlatformDocument>, { sort: { date: -1, _id: -1 }, limit: page.limit })
    .toArray();

export const platformDocumentById = (store: ReadStore, id: string): Promise<PlatformDocument | null> => documents(store).findOne({ _id: id });
