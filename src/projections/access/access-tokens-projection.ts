import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import { applyOnce, type Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import { accessTokensCollection, type AccessTokenDocument } from './access-token-document.ts';

const eventTypes = ['AccessTokenIssued', 'AccessTokenRevoked'] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

/** The `access_tokens` read model: what the authentication middleware checks a bearer or API token against. */
export const accessTokensProjection: Projection = {
  name: 'access-tokens',
  version: 1,
  eventTypes,
  collections: [accessTokensCollection],

  async setup(store: ReadStore) {
    await store.collection<AccessTokenDocument>(accessTokensCollection).createIndex({ group: 1 });
  },

  async apply(stored: StoredEvent, store: ReadStore) {
    if (!handled.has(stored.type)) return;
    const event = stored as StoredEvent<Handled>;
    const tokens = store.collection<AccessTokenDocument>(accessTokensCollection);
    switch (event.type) {
      case 'AccessTokenIssued': {
        const { tokenId, ...token } = event.data;
        await applyOnce(tokens, tokenId, event.position, { $set: { ...token, revokedAt: null } }, { upsert: true });
        return;
      }
      case 'AccessTokenRevoked':
        await applyOnce(tokens, event.data.tokenId, event.position, { $set: { revokedAt: event.data.revokedAt } });
        return;
      default:
        return assertNever(event);
    }
  },
};
