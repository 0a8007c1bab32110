import type { Middleware, ParameterizedContext } from 'koa';
import { parseAccessToken, verifySecret } from '../events/access/access-token.ts';
import type { TokenGroup } from '../events/access/events.ts';
import type { CommandContext } from '../events/command-context.ts';
import type { TokenLookup } from '../projections/access/token-lookup.ts';
import { HttpError } from './http-error.ts';

/** Where the token travels: `Authorization: Bearer <token>` or the chatbot's `X-API-Token: <token>`. */
export type TokenScheme = 'bearer' | 'api-token';

export type AuthenticateOptions = {
  /** The access tokens' read model (runtime.accessTokens: cached while it does not change). */
  findToken: TokenLookup;
  scheme: TokenScheme;
  /** The groups this route opens to; a function for routes whose group is in the path (a supplier's own segment). */
  groups: readonly TokenGroup[] | ((ctx: ParameterizedContext) => readonly TokenGroup[]);
  /** The 401 of the route's API group: every failure (missing, unknown, revoked, wrong group) answers the same. */
  unauthorized: () => HttpError;
};

// Compared against when the token id is unknown, so that a miss costs the same as a wrong secret.
const decoyHash = '0'.repeat(64);

const rawToken = (ctx: ParameterizedContext, scheme: TokenScheme): string | undefined => {
  if (scheme === 'api-token') return ctx.get('x-api-token') || undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
  return match?.[1];
};

/**
 * Checks the request's token against the stored hashes (in constant time), its revocation and its
 * group, and attributes the request: `ctx.state.commandContext` carries the token's group and label
 * into every event the request causes.
 */
export const authenticate =
  (options: AuthenticateOptions): Middleware =>
  async (ctx, next) => {
    const parsed = parseAccessToken(rawToken(ctx, options.scheme) ?? '');
    const document = parsed ? await options.findToken(parsed.tokenId) : null;
    const secretMatches = verifySecret(parsed?.secret ?? '', document?.secretHash ?? decoyHash);
    const groups = typeof options.groups === 'function' ? options.groups(ctx) : options.groups;
    if (!document || !secretMatches || document.revokedAt !== null || !groups.includes(document.group)) {
      throw options.unauthorized();
    }
    const context: CommandContext = {
      actor: { kind: 'token', group: document.group, label: document.label, tokenId: document._id },
      correlationId: ctx.state.correlationId,
      ...(ctx.state.clientRequestId !== undefined && { clientRequestId: ctx.state.clientRequestId }),
    };
    ctx.state.token = { tokenId: document._id, group: document.group, label: document.label };
    ctx.state.commandContext = context;
    await next();
  };
