import { MemoryCollection } from './memory-collection.ts';
import type { Document, ReadCollection, ReadStore } from './read-store.ts';

/**
 * The embedded adapter of the read-store port: MongoDB's behaviour for the port's surface, held in
 * process memory. Collection handles stay valid across `dropAll`, as the driver's do.
 */
export function createMemoryReadStore(): ReadStore {
  const collections = new Map<string, MemoryCollection>();

  const collection = (name: string): MemoryCollection => {
    let found = collections.get(name);
    if (!found) {
      found = new MemoryCollection(name, (other) => collection(other).snapshot());
      collections.set(name, found);
    }
    return found;
  };

  return {
    collection: <T extends Document = Document>(name: string) => collection(name) as unknown as ReadCollection<T>,
    listCollectionNames: async () => [...collections.values()].filter((c) => c.exists).map((c) => c.collectionName),
    dropAll: async () => {
      for (const c of collections.values()) c.drop();
    },
    close: async () => {},
  };
}
