import { LRUCache } from 'lru-cache';
import type { ReadStore } from '../read-store/read-store.ts';
import type { AccessTokenDocument } from './access-token-document.ts';
import { findAccessToken } from './queries.ts';

/** The token of an id, as the authentication of every request reads it. */
export type TokenLookup = (tokenId: string) => Promise<AccessTokenDocument | null>;

export const maxCachedTokens = 1000;

/**
 * The `access_tokens` read model with a memory: a token read is kept while the read model has not
 * changed since (`contentVersion`, see the projection engine), so that a request costs no read of the
 * store. Issuing or revoking any token changes it and every entry is read again: a revocation takes
 * effect as soon as the read model has it, as without the cache. Unknown ids are remembered too (a
 * flood of made-up tokens costs no reads); least recently used entries go first beyond `maxEntries`.
 * `whenUnknown` is asked once about an id the store does not know, before it is remembered as
 * unknown (see `catchingUpOnUnknown`).
 */
export const cachedTokenLookup = (
  store: ReadStore,
  contentVersion: () => string | null,
  options: { maxEntries?: number; whenUnknown?: TokenLookup } = {},
): TokenLookup => {
  const { maxEntries = maxCachedTokens, whenUnknown = async () => null } = options;
  const entries = new LRUCache<string, { version: string; token: AccessTokenDocument | null }>({ max: maxEntries });
  return async (tokenId) => {
    // Taken before the read: a change applied meanwhile makes the entry stale at once, never fresh for too long.
    const version = contentVersion();
    const entry = entries.get(tokenId);
    if (entry && entry.version === version) return entry.token;
    const token = (await findAccessToken(store, tokenId)) ?? (await whenUnknown(tokenId));
    if (version === null) return token;
    entries.set(tokenId, { version, token });
    return token;
  };
};

/**
 * A token just issued by another process (the CLI beside the server) is in the log before this
 * process's read model has it (it reads others' appends every ~100 ms): an id the read model does not
 * know is looked up again once the read model has caught up with the log's head, so that a token
 * works from the moment `token issue` printed it. Costs a read of the head per unknown id and version.
 */
export const catchingUpOnUnknown =
  (store: ReadStore, deps: { head: () => Promise<number>; catchUp: (position: number) => Promise<boolean> }): TokenLookup =>
  async (tokenId) => {
    const head = await deps.head();
    return (await deps.catchUp(head)) ? findAccessToken(store, tokenId) : null;
  };
