import type { SupplierName } from '../../events/schema/common-schemas.ts';
import type { Clock } from '../../events/command-context.ts';
import type { SupplierChanges } from './supplier-changes.ts';

/**
 * supplier-a's get-sales cache: each distinct query is kept 30 minutes (the spec's promise to that
 * supplier), to spare the read store its frequent polling. It must never lie: an entry is served only
 * while no change to the supplier's lines was applied after the position it was read at, so a line just
 * shipped or acknowledged, here or by any other way into the log, is never shown from the cache. Least
 * recently used entries go first beyond `maxEntries`.
 */

export const supplierCacheTtlMs = 30 * 60 * 1000;
export const supplierCacheMaxEntries = 1000;

export type SupplierSalesCache<T> = {
  /** The answer to `key`: from the cache when still true to the read model, else computed and kept. */
  through(key: string, compute: () => Promise<T>): Promise<{ value: T; hit: boolean }>;
  size(): number;
};

export type SupplierSalesCacheOptions = {
  supplier: SupplierName;
  changes: SupplierChanges;
  clock: Clock;
  ttlMs?: number;
  maxEntries?: number;
};

type Entry<T> = { value: T; epoch: number; readAt: number; expiresAt: number };

export const createSupplierSalesCache = <T>(options: SupplierSalesCacheOptions): SupplierSalesCache<T> => {
  const ttlMs = options.ttlMs ?? supplierCacheTtlMs;
  const maxEntries = options.maxEntries ?? supplierCacheMaxEntries;
  // A Map keeps insertion order: re-inserting on each hit keeps the least recently used first.
  const entries = new Map<string, Entry<T>>();

  return {
    async through(key, compute) {
      const version = await options.changes.versionOf(options.supplier);
      const now = options.clock.now().getTime();
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        if (entry.expiresAt > now && entry.epoch === version.epoch && entry.readAt >= version.lastChange) {
          entries.set(key, entry);
          return { value: entry.value, hit: true };
        }
      }
      // Read after taking the version: the answer reflects at least every event up to `version.position`.
      const value = await compute();
      entries.set(key, { value, epoch: version.epoch, readAt: version.position, expiresAt: now + ttlMs });
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldest);
      }
      return { value, hit: false };
    },
    size: () => entries.size,
  };
};
