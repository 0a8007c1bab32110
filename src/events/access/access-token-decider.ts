import { assertNever, Refusal, type Decider } from '../decider.ts';
import type { AccessEvent, TokenGroup } from './events.ts';

/** An API access token, `accesstoken-<tokenId>`: issued once, revoked at most once, never re-activated. */

/** The events of an access token's stream. */
export type AccessTokenEvent = Extract<AccessEvent, { type: 'AccessTokenIssued' | 'AccessTokenRevoked' }>;

export type AccessTokenState =
  | { status: 'absent' }
  | {
      status: 'active' | 'revoked';
      tokenId: string;
      group: TokenGroup;
      label: string;
      secretHash: string;
      issuedAt: string;
      revokedAt: string | null;
    };

export type IssueAccessToken = { type: 'IssueAccessToken'; tokenId: string; group: TokenGroup; label: string; secretHash: string; at: string };
export type RevokeAccessToken = { type: 'RevokeAccessToken'; at: string };
export type AccessTokenCommand = IssueAccessToken | RevokeAccessToken;

/** `token_exists`: a token was already issued under this ID; `unknown_token`: no token was issued under it. */
export type AccessTokenRefusalCode = 'token_exists' | 'unknown_token';

const decide = (command: AccessTokenCommand, state: AccessTokenState): readonly AccessTokenEvent[] | Refusal<AccessTokenRefusalCode> => {
  switch (command.type) {
    case 'IssueAccessToken': {
      if (state.status !== 'absent') return new Refusal('token_exists', `Token ${state.tokenId} already exists`, { tokenId: state.tokenId });
      const { tokenId, group, label, secretHash, at } = command;
      return [{ type: 'AccessTokenIssued', data: { tokenId, group, label, secretHash, issuedAt: at } }];
    }
    case 'RevokeAccessToken':
      if (state.status === 'absent') return new Refusal('unknown_token', 'No token was issued under this ID');
      if (state.status === 'revoked') return [];
      return [{ type: 'AccessTokenRevoked', data: { tokenId: state.tokenId, revokedAt: command.at } }];
    default:
      return assertNever(command);
  }
};

const evolve = (state: AccessTokenState, event: AccessTokenEvent): AccessTokenState => {
  switch (event.type) {
    case 'AccessTokenIssued':
      return { status: 'active', ...event.data, revokedAt: null };
    case 'AccessTokenRevoked':
      if (state.status === 'absent') return state;
      return { ...state, status: 'revoked', revokedAt: event.data.revokedAt };
    default:
      return assertNever(event);
  }
};

export const accessTokenDecider: Decider<AccessTokenState, AccessTokenCommand, AccessTokenEvent> = {
  initialState: () => ({ status: 'absent' }),
  evolve,
  decide,
};
