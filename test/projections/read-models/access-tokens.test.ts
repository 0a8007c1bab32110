import { describe, expect, it } from 'vitest';
import { accessTokensProjection } from '../../../src/projections/access/access-tokens-projection.ts';
import { findAccessToken, listAccessTokens } from '../../../src/projections/access/queries.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { project } from './project.ts';
import { buildScenario } from './scenario.ts';

const projections = [accessTokensProjection];

const given = async () => {
  const store = await openTestReadStore();
  await project(store, projections, buildScenario().events);
  return store;
};

describe('access tokens read model', () => {
  it('when a token was issued, it is found with its group, label and secret hash', async () => {
    expect(await findAccessToken(await given(), 'supplieratoken')).toEqual({
      _id: 'supplieratoken',
      _position: expect.any(Number),
      group: 'supplier-a',
      label: 'Supplier A',
      secretHash: 'a'.repeat(64),
      issuedAt: '2025-01-01T00:00:00Z',
      revokedAt: null,
    });
  });

  it('when a token was revoked, it is still found, with when it was revoked', async () => {
    expect((await findAccessToken(await given(), 'oldchatbot'))?.revokedAt).toBe('2025-01-02T00:00:00Z');
  });

  it('when tokens are listed, revoked ones come only when asked, and a group narrows the list', async () => {
    const store = await given();
    expect((await listAccessTokens(store)).map((token) => token._id)).toEqual(['supplieratoken']);
    expect((await listAccessTokens(store, { includeRevoked: true })).map((token) => token._id)).toEqual(['oldchatbot', 'supplieratoken']);
    expect((await listAccessTokens(store, { group: 'chatbot', includeRevoked: true })).map((token) => token._id)).toEqual(['oldchatbot']);
    expect(await listAccessTokens(store, { group: 'chatbot' })).toEqual([]);
  });

  it('when a token was never issued, nothing is found', async () => {
    expect(await findAccessToken(await given(), 'unknowntoken')).toBeNull();
  });
});
