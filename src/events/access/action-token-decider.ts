import { assertNever, Refusal, type Decider } from '../decider.ts';
import type { AccessEvent, ActionKind } from './events.ts';

/**
 * The single use of an action token, `actiontoken-<jti>`. A link in an e-mail (cancel, change the
 * address, book an appointment) may be clicked twice or replayed: the first use is recorded, every
 * later use is refused, so the action happens once. Each use is appended with the stream's expected
 * revision, so of two racing uses exactly one is recorded. A use whose action surely did not happen is
 * restored by the request that recorded it, and the token can be used again.
 */

/** The events of an action token's stream. */
export type ActionTokenEvent = Extract<AccessEvent, { type: 'ActionTokenConsumed' | 'ActionTokenRestored' }>;

export type ActionTokenState = { status: 'unused' } | { status: 'consumed'; action: ActionKind; saleId: number; consumedAt: string };

export type ConsumeActionToken = { type: 'ConsumeActionToken'; jti: string; action: ActionKind; saleId: number; at: string };
/** `reason`: why the action did not happen (a refusal's code, or the failure's). */
export type RestoreActionToken = { type: 'RestoreActionToken'; jti: string; reason: string; at: string };
export type ActionTokenCommand = ConsumeActionToken | RestoreActionToken;

/** `action_token_used`: the token has already been used once. */
export type ActionTokenRefusalCode = 'action_token_used';

const decide = (command: ActionTokenCommand, state: ActionTokenState): readonly ActionTokenEvent[] | Refusal<ActionTokenRefusalCode> => {
  switch (command.type) {
    case 'ConsumeActionToken': {
      if (state.status === 'consumed') {
        return new Refusal('action_token_used', 'This link has already been used', { consumedAt: state.consumedAt });
      }
      const { jti, action, saleId, at } = command;
      return [{ type: 'ActionTokenConsumed', data: { tokenJti: jti, action, saleId, consumedAt: at } }];
    }
    case 'RestoreActionToken':
      if (state.status !== 'consumed') return [];
      return [{ type: 'ActionTokenRestored', data: { tokenJti: command.jti, reason: command.reason, restoredAt: command.at } }];
    default:
      return assertNever(command);
  }
};

const evolve = (_state: ActionTokenState, event: ActionTokenEvent): ActionTokenState => {
  switch (event.type) {
    case 'ActionTokenConsumed':
      return { status: 'consumed', action: event.data.action, saleId: event.data.saleId, consumedAt: event.data.consumedAt };
    case 'ActionTokenRestored':
      return { status: 'unused' };
    default:
      return assertNever(event);
  }
};

export const actionTokenDecider: Decider<ActionTokenState, ActionTokenCommand, ActionTokenEvent> = {
  initialState: () => ({ status: 'unused' }),
  evolve,
  decide,
};
