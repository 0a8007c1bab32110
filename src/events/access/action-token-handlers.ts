import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, type WriteDeps, type Written } from '../command-handler.ts';
import type { Refusal } from '../decider.ts';
import { actionTokenDecider, type ActionTokenRefusalCode } from './action-token-decider.ts';
import { actionTokenStreamName, type ActionKind } from './events.ts';

export type ConsumeActionTokenOutcome = { status: 'consumed'; written: Written | undefined } | { status: 'refused'; refusal: Refusal<ActionTokenRefusalCode> };

/**
 * Records the single use of a verified action token (see action-token.ts: signature, expiry, action
 * kind and sale are checked before). Call it before performing the action: a refused use must not act.
 */
export const consumeActionToken = async (
  deps: WriteDeps,
  input: { jti: string; action: ActionKind; saleId: number },
  context: CommandContext,
): Promise<ConsumeActionTokenOutcome> => {
  const at = deps.clock.now().toISOString();
  const outcome = await handleCommand(deps, actionTokenStreamName(input.jti), actionTokenDecider, { type: 'ConsumeActionToken', ...input, at }, context);
  if (outcome.status === 'refused') return { status: 'refused', refusal: outcome.refusal as Refusal<ActionTokenRefusalCode> };
  if (outcome.status === 'unchanged') throw new Error('unreachable: consuming an action token always records or refuses');
  return { status: 'consumed', written: writtenBy(outcome) };
};

/**
 * Gives back a use recorded by consumeActionToken, when its action surely did not happen. Only the
 * request that recorded the use calls it: until then every other use of the token is refused.
 */
export const restoreActionToken = async (deps: WriteDeps, input: { jti: string; reason: string }, context: CommandContext): Promise<void> => {
  const command = { type: 'RestoreActionToken' as const, ...input, at: deps.clock.now().toISOString() };
  await handleCommand(deps, actionTokenStreamName(input.jti), actionTokenDecider, command, context);
};
