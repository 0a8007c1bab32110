import type { Filter, ReadStore } from '../read-store/read-store.ts';
import { platformDocumentsCollection, type PlatformDocument } from './platform-document.ts';

const documents = (store: ReadStore) => store.collection<PlatformDocument>(platformDocumentsCollection);

/**
 * The documents of `from` on (all when null) due to be sent at `now`, oldest first: never attempted, or
 * failed and past their next attempt (a document the platform keeps refusing holds no other back).
 */
export const duePlatformDocuments = async (store: ReadStore, from: string | null, now: string, limit: number): Promise<PlatformDocument[]> => {
  const fromDate = from ? { date: { $gte: from } } : {};
  const options = { sort: { date: 1, _id: 1 } as const, limit };
  const [pending, retrying] = await Promise.all([
    documents(store)
      .find({ 'transmission.status': 'pending', ...fromDate } as Filter<PlatformDocument>, options)
      .toArray(),
    documents(store)
      .find({ 'transmission.status': 'retrying', 'transmission.nextAttemptAt': { $lte: now }, ...fromDate } as Filter<PlatformDocument>, options)
      .toArray(),
  ]);
  return [...pending, ...retrying].sort((a, b) => a.date.localeCompare(b.date) || a._id.localeCompare(b._id)).slice(0, limit);
};

/** The documents of `since` on, sent, whose lifecycle on the platform is still going on, oldest first: the outbox reads their status. */
export const sentPlatformDocuments = (store: ReadStore, since: string, limit: number): Promise<PlatformDocument[]> =>
  documents(store)
    .find({ 'transmission.status': 'sent', lifecycleOver: false, date: { $gte: since } } as Filter<PlatformDocument>, { sort: { date: 1, _id: 1 }, limit })
    .toArray();

/** The latest documents owed to the platform, newest first, optionally of one kind. */
export const platformDocuments = (store: ReadStore, page: { kind?: PlatformDocument['kind']; limit: number }): Promise<PlatformDocument[]> =>
  documents(store)
    .find((page.kind ? { kind: page.kind } : {}) as Filter<PlatformDocument>, { sort: { date: -1, _id: -1 }, limit: page.limit })
    .toArray();

export const platformDocumentById = (store: ReadStore, id: string): Promise<PlatformDocument | null> => documents(store).findOne({ _id: id });
