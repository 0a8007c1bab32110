import { isAttemptDue } from '../retry-schedule.ts';
import { assertNever, Refusal, type Decider } from '../decider.ts';
import type { WebhookEvent, WebhookKind } from './events.ts';

/**
 * One message owed to one subscription, `webhookdelivery-<subscriptionId>-<messageId>`: each attempt
 * recorded (delivered, or failed with when it is tried again), and a request to send it once more.
 * Settled once delivered, until someone asks for it again.
 */

export type WebhookDeliveryEvent = Extract<WebhookEvent, { type: 'WebhookDelivered' | 'WebhookDeliveryFailed' | 'WebhookRedeliveryRequested' }>;

export type WebhookDeliveryState = {
  attempts: number;
  delivered: boolean;
  /** Asked to be sent again and not sent since. */
  redeliveryRequested: boolean;
  nextAttemptAt: string | null;
  /** The first failure since the last success: a day after it, the subscription is marked failing. */
  failingSince: string | null;
};

export type DeliveryRef = { subscriptionId: string; messageId: string; sourceEventId: string; serviceOrderId: string; position: number; kind: WebhookKind };

export type WebhookDeliveryCommand =
  | ({ type: 'RecordDelivered'; status: number; at: string } & DeliveryRef)
  | ({ type: 'RecordDeliveryFailed'; status: number | null; error: string; nextAttemptAt: string | null; at: string } & DeliveryRef)
  | ({ type: 'RequestRedelivery'; at: string } & DeliveryRef);

export type WebhookDeliveryRefusalCode = 'never_attempted';

export const isDeliverySettled = (state: WebhookDeliveryState): boolean => state.delivered && !state.redeliveryRequested;

/** Not settled, and its next attempt (if one was set) has come. */
export const isDeliveryDue = (state: WebhookDeliveryState, now: Date): boolean => !isDeliverySettled(state) && isAttemptDue(state.nextAttemptAt, now);

const decide = (command: WebhookDeliveryCommand, state: WebhookDeliveryState): readonly WebhookDeliveryEvent[] | Refusal<WebhookDeliveryRefusalCode> => {
  const { subscriptionId, messageId, sourceEventId, serviceOrderId, position, kind } = command;
  const ref = { subscriptionId, messageId, sourceEventId, serviceOrderId, position, kind };
  switch (command.type) {
    case 'RecordDelivered':
      if (isDeliverySettled(state)) return [];
      return [{ type: 'WebhookDelivered', data: { ...ref, attempt: state.attempts + 1, status: command.status, deliveredAt: command.at } }];
    case 'RecordDeliveryFailed':
      if (isDeliverySettled(state)) return [];
      return [
        {
          type: 'WebhookDeliveryFailed',
          data: {
            ...ref,
            attempt: state.attempts + 1,
            status: command.status,
            error: command.error,
            nextAttemptAt: command.nextAttemptAt,
            failedAt: command.at,
          },
        },
      ];
    case 'RequestRedelivery':
      if (state.attempts === 0) return new Refusal('never_attempted', 'This event has not been sent yet: it will be, in its turn');
      if (!isDeliverySettled(state)) return [];
      return [{ type: 'WebhookRedeliveryRequested', data: { ...ref, requestedAt: command.at } }];
    default:
      return assertNever(command);
  }
};

const evolve = (state: WebhookDeliveryState, event: WebhookDeliveryEvent): WebhookDeliveryState => {
  switch (event.type) {
    case 'WebhookDelivered':
      return { attempts: event.data.attempt, delivered: true, redeliveryRequested: false, nextAttemptAt: null, failingSince: null };
    case 'WebhookDeliveryFailed':
      return {
        ...state,
        attempts: event.data.attempt,
        nextAttemptAt: event.data.nextAttemptAt,
        failingSince: state.failingSince ?? event.data.failedAt,
      };
    case 'WebhookRedeliveryRequested':
      return { ...state, redeliveryRequested: true, nextAttemptAt: null };
    default:
      return assertNever(event);
  }
};

export const webhookDeliveryDecider: Decider<WebhookDeliveryState, WebhookDeliveryCommand, WebhookDeliveryEvent> = {
  initialState: () => ({ attempts: 0, delivered: false, redeliveryRequested: false, nextAttemptAt: null, failingSince: null }),
  evolve,
  decide,
};
