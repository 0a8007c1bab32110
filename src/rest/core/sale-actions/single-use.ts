import type { ActionTokenPayload } from '../../../events/access/action-token.ts';
import { actionTokenDecider, type ActionTokenEvent } from '../../../events/access/action-token-decider.ts';
import { consumeActionToken } from '../../../events/access/action-token-handlers.ts';
import { actionTokenStreamName } from '../../../events/access/events.ts';
import type { CommandContext } from '../../../events/command-context.ts';
import { fold, Refusal } from '../../../events/decider.ts';
import { readDomainStream } from '../../../events/domain-store.ts';
import type { Runtime } from '../../../runtime.ts';
import { refusalError } from './sale-action-errors.ts';

export type SingleUseSteps<Result> = {
  /** Decides the action against the current state without recording anything: its refusal, or null. */
  precheck: () => Promise<Refusal | null>;
  /** Performs the action; runs at most once per token. */
  act: () => Promise<Result>;
};

const alreadyUsed = async (runtime: Runtime, jti: string): Promise<boolean> => {
  const { events } = await readDomainStream<ActionTokenEvent>(runtime.eventStore, actionTokenStreamName(jti));
  return fold(actionTokenDecider, events).status === 'consumed';
};

/**
 * A state-changing action of a single-use token, in this order:
 * 1. a token already used answers 409 `action_token_used` (a quick read, so that a replayed link
 *    says so rather than whatever the sale has become since);
 * 2. the action is decided against the current state, and a refusal answers 409 without burning the
 *    token: a customer whose slot is full can try the same link again once one frees up;
 * 3. the use is recorded (ConsumeActionToken): the stream is created with `no_stream`, so of any number
 *    of racing requests exactly one gets past this point, the others answer `action_token_used`;
 * 4. the action is performed, by that one request only.
 * Between 2 and 4 another writer may change the sale (a shipment, a booking of the last place): the
 * action is then refused by its decider and the token stays used. That race is narrow and the answer
 * says why; the other order (act, then consume) would let racing requests act twice.
 */
export const actOnce = async <Result>(
  runtime: Runtime,
  payload: ActionTokenPayload,
  context: CommandContext,
  steps: SingleUseSteps<Result>,
): Promise<Result> => {
  if (await alreadyUsed(runtime, payload.jti)) throw refusalError(new Refusal('action_token_used', 'This link has already been used'));
  const refusal = await steps.precheck();
  if (refusal) throw refusalError(refusal);
  const consumed = await consumeActionToken(runtime.write, { jti: payload.jti, action: payload.action, saleId: payload.saleId }, context);
  if (consumed.status === 'refused') throw refusalError(consumed.refusal);
  return steps.act();
};
