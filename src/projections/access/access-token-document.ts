import type { TokenGroup } from '../../events/access/events.ts';
import type { Tracked } from '../projection.ts';

/** The `access_tokens` read model: one document per API token, `_id` = tokenId. */

export const accessTokensCollection = 'access_tokens';

export type AccessTokenDocument = Tracked & {
  _id: string;
  group: TokenGroup;
  label: string;
  /** SHA-256 of the secret part, hex; the secret itself is never stored. */
  secretHash: string;
  issuedAt: string;
  revokedAt: string | null;
};
