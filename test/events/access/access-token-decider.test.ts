import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import { accessTokenDecider, type AccessTokenEvent, type IssueAccessToken } from '../../../src/events/access/access-token-decider.ts';
import { deciderSpec } from '../../support/decider-spec.ts';

const spec = deciderSpec(accessTokenDecider);
const issuedAt = '2025-03-01T08:00:00.000Z';
const at = '2025-03-14T09:30:00.000Z';
const secretHash = 'a'.repeat(64);

const issue = (tokenId: string): IssueAccessToken => ({ type: 'IssueAccessToken', tokenId, group: 'supplier-a', label: 'supplier-a-edi', secretHash, at });
const issued = (tokenId: string) =>
  ({ type: 'AccessTokenIssued', data: { tokenId, group: 'supplier-a', label: 'supplier-a-edi', secretHash, issuedAt } }) as const;
const revoked = (tokenId: string) => ({ type: 'AccessTokenRevoked', data: { tokenId, revokedAt: issuedAt } }) as const;
const freshTokenId = () => randomBytes(8).toString('hex');

describe('issuing an access token', () => {
  it('when the token ID is new, the token is issued with the hash of its secret', () => {
    const tokenId = freshTokenId();
    spec
      .given([])
      .when(issue(tokenId))
      .then([{ type: 'AccessTokenIssued', data: { tokenId, group: 'supplier-a', label: 'supplier-a-edi', secretHash, issuedAt: at } }]);
  });

  it('when a token was already issued under the ID, it is refused with token_exists', () => {
    const tokenId = freshTokenId();
    spec
      .given([issued(tokenId)])
      .when(issue(tokenId))
      .thenRefused('token_exists');
  });

  it('when the token under the ID was revoked, issuing again is still refused with token_exists', () => {
    const tokenId = freshTokenId();
    spec
      .given([issued(tokenId), revoked(tokenId)])
      .when(issue(tokenId))
      .thenRefused('token_exists');
  });
});

describe('revoking an access token', () => {
  it('when the token is active, it is revoked', () => {
    const tokenId = freshTokenId();
    const expected: AccessTokenEvent[] = [{ type: 'AccessTokenRevoked', data: { tokenId, revokedAt: at } }];
    spec
      .given([issued(tokenId)])
      .when({ type: 'RevokeAccessToken', at })
      .then(expected);
  });

  it('when the token is unknown, it is refused with unknown_token', () => {
    spec.given([]).when({ type: 'RevokeAccessToken', at }).thenRefused('unknown_token');
  });

  it('when the token was already revoked, nothing happens', () => {
    const tokenId = freshTokenId();
    spec
      .given([issued(tokenId), revoked(tokenId)])
      .when({ type: 'RevokeAccessToken', at })
      .thenNothingHappens();
  });
});
