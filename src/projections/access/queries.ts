import type { TokenGroup } from '../../events/access/events.ts';
import type { Filter, ReadStore } from '../read-store/read-store.ts';
import { accessTokensCollection, type AccessTokenDocument } from './access-token-document.ts';

/** Reads of the `access_tokens` read model. */

/** The token, revoked or not: the caller checks `revokedAt` and the secret's hash. */
export const findAccessToken = (store: ReadStore, tokenId: string): Promise<AccessTokenDocument | null> =>
  store.collection<AccessTokenDocument>(accessTokensCollection).findOne({ _id: tokenId });

/** The tokens, oldest first; revoked ones only when asked. */
export const listAccessTokens = (store: ReadStore, options: { group?: TokenGroup; includeRevoked?: boolean } = {}): Promise<AccessTokenDocument[]> => {
  const filter: Filter<AccessTokenDocument> = {};
  if (options.group !== undefined) filter.group = options.group;
  if (!options.includeRevoked) filter.revokedAt = null;
  return store
    .collection<AccessTokenDocument>(accessTokensCollection)
    .find(filter, { sort: { issuedAt: 1, _id: 1 } })
    .toArray();
};
