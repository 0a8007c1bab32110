import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { issueAccessToken, revokeAccessToken } from '../../../src/events/access/access-token-handlers.ts';
import { systemContext } from '../../../src/events/command-context.ts';
import { accessTokensProjection } from '../../../src/projections/access/access-tokens-projection.ts';
import { cachedTokenLookup, type TokenLookup } from '../../../src/projections/access/token-lookup.ts';
import type { ReadStore } from '../../../src/projections/read-store/read-store.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../../support/api-harness.ts';
import { anOrder, importOrder } from '../../rest/supplier/supplier-fixtures.ts';

describe('the access tokens as every request reads them', () => {
  let api: ApiHarness;
  let reads: number;
  let lookup: TokenLookup;
  const now = new Date('2026-10-05T08:00:00.000Z');
  beforeEach(async () => {
    api = await startApi({ clock: { now: () => now } });
    reads = 0;
    // The runtime's read store, counting the reads of the access tokens.
    const counting: ReadStore = Object.create(api.runtime.readStore, {
      collection: {
        value: (name: string) => {
          const collection = api.runtime.readStore.collection(name);
          return Object.create(collection, {
            findOne: { value: (...args: Parameters<typeof collection.findOne>) => ((reads += 1), collection.findOne(...args)) },
          });
        },
      },
    });
    lookup = cachedTokenLookup(counting, () => api.runtime.projections.contentVersion(accessTokensProjection.name));
  });
  afterEach(async () => api.close());

  it('when the access tokens do not change, a token is read from the store once, whatever else is written meanwhile', async () => {
    const issued = await issueAccessToken(api.runtime.write, { group: 'supplier-a', label: 'entrepot' }, systemContext());
    await readModelsCaughtUp(api.runtime);
    expect((await lookup(issued.tokenId))?.label).toBe('entrepot');
    expect((await lookup(issued.tokenId))?.label).toBe('entrepot');
    await importOrder(api, anOrder([{ supplier: 'supplier-a' }]));
    await readModelsCaughtUp(api.runtime);
    expect((await lookup(issued.tokenId))?.label).toBe('entrepot');
    expect(await lookup('0123456789abcdef')).toBeNull();
    expect(await lookup('0123456789abcdef')).toBeNull();
    expect(reads).toBe(2);
  });

  it('when a token is revoked, or another issued, the next lookup reads the store again and sees the revocation', async () => {
    const issued = await issueAccessToken(api.runtime.write, { group: 'supplier-a' }, systemContext());
    await readModelsCaughtUp(api.runtime);
    await lookup(issued.tokenId);
    await issueAccessToken(api.runtime.write, { group: 'core' }, systemContext());
    await readModelsCaughtUp(api.runtime);
    await lookup(issued.tokenId);
    expect(reads).toBe(2);

    await revokeAccessToken(api.runtime.write, issued.tokenId, systemContext());
    await readModelsCaughtUp(api.runtime);
    expect((await lookup(issued.tokenId))?.revokedAt).toBe(now.toISOString());
    expect(reads).toBe(3);
  });
});
