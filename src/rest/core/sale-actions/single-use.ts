import type { ActionTokenPayload } from '../../../events/access/action-token-payload.ts';
import { actionTokenDecider, type ActionTokenEvent } from '../../../events/access/action-token-decider.ts';
import { consumeActionToken, restoreActionToken } from '../../../events/access/action-token-handlers.ts';
import { recordedNothing } from '../../../events/recorded-nothing.ts';
import { actionTokenStreamName } from '../../../events/access/events.ts';
import type { CommandContext } from '../../../events/command-context.ts';
import { fold, Refusal } from '../../../events/decider.ts';
import { readDomainStream } from '../../../events/domain-store.ts';
import type { Written } from '../../../events/command-handler.ts';
import { noteWritten, type WritesOfRequest } from '../../../http/read-your-writes.ts';
import type { Runtime } from '../../../runtime.ts';
import { refusalError } from './sale-action-errors.ts';

export type SingleUseSteps<Result extends { status: string }> = {
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
 * 4. the action is performed, by that one request only;
 * 5. when the action surely did not happen (refused: between 2 and 4 another writer changed the sale,
 *    a shipment, a booking of the last place; or failed before recording anything, recorded-nothing.ts),
 *    the use is restored (ActionTokenRestored) and the link works again. A failure that may have
 *    recorded the action leaves the token used: acting twice is the harm single use prevents.
 * The other order (act, then consume) would let racing requests act twice.
 */
export const actOnce = async <Result extends { status: string; written?: Written }>(
  runtime: Runtime,
  payload: ActionTokenPayload,
  context: CommandContext,
  steps: SingleUseSteps<Result>,
  /** The request, which notes what the use and the action wrote (read-your-writes). */
  request: WritesOfRequest,
): Promise<Result> => {
  if (await alreadyUsed(runtime, payload.jti)) throw refusalError(new Refusal('action_token_used', 'This link has already been used'));
  const refusal = await steps.precheck();
  if (refusal) throw refusalError(refusal);
  const consumed = await consumeActionToken(runtime.write, { jti: payload.jti, action: payload.action, saleId: payload.saleId }, context);
  if (consumed.status === 'refused') throw refusalError(consumed.refusal);
  noteWritten(request, consumed.written);
  const restore = (reason: string) => restoreActionToken(runtime.write, { jti: payload.jti, reason }, context);
  let result: Result;
  try {
    result = await steps.act();
  } catch (error) {
    if (recordedNothing(error)) await restore((error as { code?: string }).code ?? 'failed').catch(() => undefined);
    throw error;
  }
  if (result.status === 'refused' && 'refusal' in result && result.refusal instanceof Refusal) await restore(result.refusal.code);
  noteWritten(request, result.written);
  return result;
};
