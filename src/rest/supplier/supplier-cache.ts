import { LRUCache } from 'lru-cache';
import type { Clock } from '../../events/command-context.ts';

/**
 * supplier-a's get-sales cache: each distinct query is kept 30 minutes (the spec's promise to that
 * supplier), to spare the read store its frequent polling. It must never lie: an entry is served only
 * while the supplier's part of the supplier-lines read model has the content version it was read at
 * (the projection engine's, read now whichever instance runs the projection), so a line just shipped
 * or acknowledged, here or by any other way into the log, is never shown from the cache. Least
 * recently used entries go first beyond `maxEntries` (lru-cache, with its time to live on the
 * service's clock).
 */

export const supplierCacheTtlMs = 30 * 60 * 1000;
export const supplierCacheMaxEntries = 1000;

export type SupplierSalesCache<T> = {
  /** The answer to `key`: from the cache when still true to the read model, else computed and kept. */
  through(key: string, compute: () => Promise<T>): Promise<{ value: T; hit: boolean }>;
  size(): number;
};

export type SupplierSalesCacheOptions = {
  /** The content version of the supplier's lines as of the call (null when unknown: nothing is kept). */
  version: () => Promise<string | null>;
  clock: Clock;
  ttlMs?: number;
  maxEntries?: number;
};

export const createSupplierSalesCache = <T>(options: SupplierSalesCacheOptions): SupplierSalesCache<T> => {
  const entries = new LRUCache<string, { value: T; version: string }>({
    max: options.maxEntries ?? supplierCacheMaxEntries,
    ttl: options.ttlMs ?? supplierCacheTtlMs,
    perf: { now: () => options.clock.now().getTime() },
    // Every check reads the clock (the service's, which specs move): no time is remembered between checks.
    ttlResolution: 0,
  });
  return {
    async through(key, compute) {
      // Taken before the read: a change applied meanwhile makes the entry stale at once, never fresh for too long.
      const version = await options.version();
      const entry = entries.get(key);
      if (entry && entry.version === version) return { value: entry.value, hit: true };
      const value = await compute();
      if (version !== null) entries.set(key, { value, version });
      return { value, hit: false };
    },
    size: () => entries.size,
  };
};
