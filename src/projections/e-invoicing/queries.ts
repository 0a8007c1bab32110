import type { Filter, ReadStore } from '../read-store/read-store.ts';
import { platformDocumentsCollection, type PlatformDocument } from './platform-document.ts';

const documents = (store: ReadStore) => store.collection<PlatformDocument>(platformDocumentsCollection);

/** The documents not yet sent (pending or retrying), oldest first: the outbox's candidates. */
export const unsentPlatformDocuments = (store: ReadStore, limit: number): Promise<PlatformDocument[]> =>
  documents(store)
    .find({ 'transmission.status': { $in: ['pending', 'retrying'] } } as Filter<PlatformDocument>, { sort: { date: 1, _id: 1 }, limit })
    .toArray();

/** The documents sent whose lifecycle on the platform is still going on: the outbox polls their status. */
export const sentPlatformDocuments = (store: ReadStore, limit: number): Promise<PlatformDocument[]> =>
  documents(store)
    .find({ 'transmission.status': 'sent' } as Filter<PlatformDocument>, { sort: { date: 1, _id: 1 }, limit })
    .toArray();

/** The latest documents owed to the platform, newest first, optionally of one kind. */
export const platformDocuments = (store: ReadStore, page: { kind?: PlatformDocument['kind']; limit: number }): Promise<PlatformDocument[]> =>
  documents(store)
    .find((page.kind ? { kind: page.kind } : {}) as Filter<PlatformDocument>, { sort: { date: -1, _id: -1 }, limit: page.limit })
    .toArray();

export const platformDocumentById = (store: ReadStore, id: string): Promise<PlatformDocument | null> => documents(store).findOne({ _id: id });
