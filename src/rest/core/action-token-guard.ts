import type { ActionTokenPayload } from '../../events/access/action-token-payload.ts';
import { verifyActionToken } from '../../events/access/action-token.ts';
import type { ActionKind } from '../../events/access/events.ts';
import type { Runtime } from '../../runtime.ts';
import { HttpError } from '../../http/http-error.ts';

const refusals = {
  malformed: 'The action token is malformed',
  bad_signature: 'The action token is not valid',
  expired: 'The action token has expired',
} as const;

/**
 * The action token of a core route, verified (signature, expiry) and of the route's kind: a token
 * minted for another action is refused as firmly as a forged one. 404 in the core envelope (the
 * core API's statuses are 401, 404 and 500: a link that does not lead anywhere is not found); the
 * caller records the single use (consumeActionToken) before acting, for the actions that change state.
 */
export const verifiedActionToken = (runtime: Pick<Runtime, 'tokenSecret' | 'clock'>, token: string, kind: ActionKind): ActionTokenPayload => {
  const verification = verifyActionToken(token, runtime.tokenSecret, runtime.clock.now());
  if (!verification.ok) throw new HttpError(404, 'invalid_action_token', refusals[verification.reason]);
  if (verification.payload.action !== kind) {
    throw new HttpError(404, 'wrong_action_token', `This token was issued for the action "${verification.payload.action}", not "${kind}"`);
  }
  return verification.payload;
};
