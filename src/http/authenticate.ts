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
  /**
   * Added to the 401 as `hint` when the token came in the other scheme's header (a Bearer header on the
   * chatbot API): a mistake of the caller's code, told without saying anything of the token itself.
   * The Bearer groups' 401 bodies stay as documented, two fields; their WWW-Authenticate names Bearer.
   */
  misplacedHint?: string;
};

/** The token was sent in the other scheme's header, and none in this one's. */
const misplaced = (ctx: ParameterizedContext, scheme: TokenScheme): boolean =>
  scheme === 'api-token' ? !ctx.get('x-api-token') && /^Bearer\s/i.test(ctx.get('authorization')) : !ctx.get('authorization') && ctx.get('x-api-token') !== '';

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
      const refusal = options.unauthorized();
      if (options.scheme === 'bearer') ctx.set('WWW-Authenticate', 'Bearer');
      if (!options.misplacedHint || !misplaced(ctx, options.scheme)) throw refusal;
      throw new HttpError(refusal.status, refusal.error, refusal.message, { ...refusal.extra, hint: options.misplacedHint });
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
