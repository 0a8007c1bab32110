import { isAttemptDue } from '../retry-schedule.ts';
import { assertNever, Refusal, type Decider } from '../decider.ts';
import { nextAttemptDelay } from '../leads/lead-decider.ts';
import type { CustomerMailEvent, CustomerMailKind } from './events.ts';

/**
 * One mail the log owes a customer, and the outcome of its attempts: sent once, skipped for a reason,
 * or retried after a growing delay (the lead mails' back-off) until `maxCustomerMailAttempts` failed.
 */

export const maxCustomerMailAttempts = 8;

export type CustomerMailState = {
  status: 'pending' | 'sent' | 'skipped' | 'failed' | 'abandoned';
  attempts: number;
  /** When the job may try again; null while pending (at once) or once settled. */
  nextAttemptAt: string | null;
};

type MailRef = { kind: CustomerMailKind; sourceEventId: string };

export type CustomerMailCommand =
  | (MailRef & { type: 'RecordCustomerMailSent'; transport: 'smtp' | 'file'; messageId: string; at: string })
  | (MailRef & { type: 'RecordCustomerMailFailed'; error: string; at: string })
  | (MailRef & { type: 'RecordCustomerMailSkipped'; reason: 'customer_erased' | 'no_address'; at: string });

/** `mail_settled`: the mail was already sent, skipped or given up: nothing more is recorded. */
export type CustomerMailRefusalCode = 'mail_settled';

export const isSettled = (state: CustomerMailState): boolean => state.status === 'sent' || state.status === 'skipped' || state.status === 'abandoned';

/** Whether the job should make an attempt now. */
export const isMailDue = (state: CustomerMailState, now: Date): boolean => !isSettled(state) && isAttemptDue(state.nextAttemptAt, now);

const decide = (command: CustomerMailCommand, state: CustomerMailState): readonly CustomerMailEvent[] | Refusal<CustomerMailRefusalCode> => {
  if (isSettled(state)) return new Refusal('mail_settled', `This mail is already ${state.status}`, { status: state.status });
  const { kind, sourceEventId, at } = command;
  const attempt = state.attempts + 1;
  switch (command.type) {
    case 'RecordCustomerMailSent':
      return [{ type: 'CustomerMailSent', data: { kind, sourceEventId, attempt, transport: command.transport, messageId: command.messageId, sentAt: at } }];
    case 'RecordCustomerMailFailed': {
      const nextAttemptAt = attempt >= maxCustomerMailAttempts ? null : new Date(Date.parse(at) + nextAttemptDelay(attempt)).toISOString();
      return [{ type: 'CustomerMailFailed', data: { kind, sourceEventId, attempt, error: command.error, nextAttemptAt, failedAt: at } }];
    }
    case 'RecordCustomerMailSkipped':
      return [{ type: 'CustomerMailSkipped', data: { kind, sourceEventId, reason: command.reason, skippedAt: at } }];
    default:
      return assertNever(command);
  }
};

const evolve = (state: CustomerMailState, event: CustomerMailEvent): CustomerMailState => {
  switch (event.type) {
    case 'CustomerMailSent':
      return { status: 'sent', attempts: event.data.attempt, nextAttemptAt: null };
    case 'CustomerMailSkipped':
      return { ...state, status: 'skipped', nextAttemptAt: null };
    case 'CustomerMailFailed':
      return {
        status: event.data.nextAttemptAt === null ? 'abandoned' : 'failed',
        attempts: event.data.attempt,
        nextAttemptAt: event.data.nextAttemptAt,
      };
    default:
      return assertNever(event);
  }
};

export const customerMailDecider: Decider<CustomerMailState, CustomerMailCommand, CustomerMailEvent> = {
  initialState: () => ({ status: 'pending', attempts: 0, nextAttemptAt: null }),
  evolve,
  decide,
};
