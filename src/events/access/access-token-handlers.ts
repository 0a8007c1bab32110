import { randomBytes } from 'node:crypto';
import type { CommandContext } from '../command-context.ts';
import { handleCommand, type WriteDeps } from '../command-handler.ts';
import type { Refusal } from '../decider.ts';
import { accessTokenDecider, type AccessTokenRefusalCode } from './access-token-decider.ts';
import { formatAccessToken, hashSecret } from './access-token.ts';
import { accessTokenStreamName, type TokenGroup } from './events.ts';

/** A freshly drawn token ID already had a stream: only possible if the random source is broken. */
export class TokenIdTakenError extends Error {
  readonly code = 'TOKEN_ID_TAKEN';
  constructor(readonly tokenId: string) {
    super(`Token ID ${tokenId} is already taken`);
    this.name = 'TokenIdTakenError';
  }
}

export type IssuedAccessToken = {
  tokenId: string;
  /** The full token to give to the client. It is shown once: only the hash of its secret is recorded. */
  token: string;
  group: TokenGroup;
  label: string;
};

export const issueAccessToken = async (deps: WriteDeps, input: { group: TokenGroup; label?: string }, context: CommandContext): Promise<IssuedAccessToken> => {
  const tokenId = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const label = input.label ?? `${input.group}-${tokenId.slice(0, 8)}`;
  const command = {
    type: 'IssueAccessToken' as const,
    tokenId,
    group: input.group,
    label,
    secretHash: hashSecret(secret),
    at: deps.clock.now().toISOString(),
  };
  const outcome = await handleCommand(deps, accessTokenStreamName(tokenId), accessTokenDecider, command, context);
  if (outcome.status === 'refused') throw new TokenIdTakenError(tokenId);
  return { tokenId, token: formatAccessToken(tokenId, secret), group: input.group, label };
};

export type RevokeOutcome = { status: 'revoked' | 'unchanged' } | { status: 'refused'; refusal: Refusal<AccessTokenRefusalCode> };

/** Revokes a token; revoking it again changes nothing. */
export const revokeAccessToken = async (deps: WriteDeps, tokenId: string, context: CommandContext): Promise<RevokeOutcome> => {
  const at = deps.clock.now().toISOString();
  const outcome = await handleCommand(deps, accessTokenStreamName(tokenId), accessTokenDecider, { type: 'RevokeAccessToken', at }, context);
  if (outcome.status === 'refused') return { status: 'refused', refusal: outcome.refusal as Refusal<AccessTokenRefusalCode> };
  return { status: outcome.status === 'accepted' ? 'revoked' : 'unchanged' };
};
