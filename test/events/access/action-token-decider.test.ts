import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import { actionTokenDecider, type ConsumeActionToken } from '../../../src/events/access/action-token-decider.ts';
import { deciderSpec } from '../../support/decider-spec.ts';

const spec = deciderSpec(actionTokenDecider);
const at = '2025-03-14T09:30:00.000Z';
const freshJti = () => randomBytes(12).toString('hex');
const consume = (jti: string): ConsumeActionToken => ({ type: 'ConsumeActionToken', jti, action: 'cancel', saleId: 1042, at });
const consumed = (tokenJti: string) =>
  ({ type: 'ActionTokenConsumed', data: { tokenJti, action: 'cancel', saleId: 1042, consumedAt: '2025-03-14T09:00:00.000Z' } }) as const;

describe('consuming an action token', () => {
  it('when the token was never used, its use is recorded', () => {
    const jti = freshJti();
    spec
      .given([])
      .when(consume(jti))
      .then([{ type: 'ActionTokenConsumed', data: { tokenJti: jti, action: 'cancel', saleId: 1042, consumedAt: at } }]);
  });

  it('when the token was already used, it is refused with action_token_used', () => {
    const jti = freshJti();
    spec
      .given([consumed(jti)])
      .when(consume(jti))
      .thenRefused('action_token_used');
  });
});

describe('restoring an action token whose action did not happen', () => {
  const restore = (jti: string) => ({ type: 'RestoreActionToken', jti, reason: 'slot_full', at }) as const;
  const restored = (tokenJti: string) => ({ type: 'ActionTokenRestored', data: { tokenJti, reason: 'slot_full', restoredAt: at } }) as const;

  it('when the token was used, the use is given back', () => {
    const jti = freshJti();
    spec
      .given([consumed(jti)])
      .when(restore(jti))
      .then([restored(jti)]);
  });

  it('when the use was given back, the token can be used again', () => {
    const jti = freshJti();
    spec
      .given([consumed(jti), restored(jti)])
      .when(consume(jti))
      .then([{ type: 'ActionTokenConsumed', data: { tokenJti: jti, action: 'cancel', saleId: 1042, consumedAt: at } }]);
  });

  it('when the token is not in use, restoring records nothing', () => {
    const jti = freshJti();
    spec
      .given([consumed(jti), restored(jti)])
      .when(restore(jti))
      .then([]);
  });
});
