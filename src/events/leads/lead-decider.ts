import { assertNever, Refusal, type Decider } from '../decider.ts';
import type { LeadEvent } from './events.ts';

/**
 * A contact lead and the outbox of its notification e-mail. The e-mail is sent by a job after the lead
 * is recorded; the job records each attempt's outcome here, so that the lead is notified once and a
 * failing transport is retried with a growing delay instead of on every run.
 */

/** After this many failed attempts the job stops retrying; an operator can still record a manual send. */
export const maxNotificationAttempts = 12;

const minute = 60_000;
const maxDelay = 60 * minute;

/** Delay before the attempt after failed attempt `attempt` (1-based): 1 min, 2, 4, 8 ... capped at 1 h. */
export const nextAttemptDelay = (attempt: number): number => {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  // 2^6 minutes already exceeds the cap: avoid computing huge powers for large attempt numbers.
  return exponent >= 6 ? maxDelay : Math.min(maxDelay, minute * 2 ** exponent);
};

export type LeadNotification = {
  /** `abandoned`: `maxNotificationAttempts` attempts failed; the job no longer picks the lead up. */
  status: 'pending' | 'sent' | 'failed' | 'abandoned';
  /** Failed attempts recorded so far (a successful attempt does not count here). */
  attempts: number;
  /** When the job should try (again); null once sent or abandoned. */
  nextAttemptAt: string | null;
  sentAt: string | null;
  lastError: string | null;
};

export type LeadState = { status: 'absent' } | { status: 'captured'; leadId: string; capturedAt: string; notification: LeadNotification };

export type CaptureLead = {
  type: 'CaptureLead';
  leadId: string;
  name: string;
  email: string;
  phone: string | null;
  projectName: string | null;
  at: string;
};

export type RecordLeadNotificationSent = {
  type: 'RecordLeadNotificationSent';
  attempt: number;
  transport: 'smtp' | 'file';
  messageId: string;
  at: string;
};

export type RecordLeadNotificationFailed = {
  type: 'RecordLeadNotificationFailed';
  attempt: number;
  error: string;
  nextAttemptAt: string;
  at: string;
};

export type LeadCommand = CaptureLead | RecordLeadNotificationSent | RecordLeadNotificationFailed;

/** `lead_exists`: the lead's stream already holds a lead; `unknown_lead`: no lead was captured under this ID. */
export type LeadRefusalCode = 'lead_exists' | 'unknown_lead';

/** Whether the notification job should make an attempt for this lead now. */
export const isNotificationDue = (notification: LeadNotification, now: Date): boolean =>
  (notification.status === 'pending' || notification.status === 'failed') &&
  notification.nextAttemptAt !== null &&
  Date.parse(notification.nextAttemptAt) <= now.getTime();

const decide = (command: LeadCommand, state: LeadState): readonly LeadEvent[] | Refusal<LeadRefusalCode> => {
  switch (command.type) {
    case 'CaptureLead': {
      if (state.status === 'captured') {
        return new Refusal('lead_exists', `Lead ${state.leadId} already exists`, { leadId: state.leadId });
      }
      const { leadId, name, email, phone, projectName, at } = command;
      return [{ type: 'ContactLeadCaptured', data: { leadId, name, email, phone, projectName, capturedAt: at } }];
    }
    case 'RecordLeadNotificationSent': {
      if (state.status === 'absent') return new Refusal('unknown_lead', 'No lead was captured under this ID');
      // The lead is notified once: a second report of success (a redelivered job) records nothing.
      if (state.notification.status === 'sent') return [];
      const { attempt, transport, messageId, at } = command;
      return [{ type: 'LeadNotificationSent', data: { leadId: state.leadId, attempt, transport, messageId, sentAt: at } }];
    }
    case 'RecordLeadNotificationFailed': {
      if (state.status === 'absent') return new Refusal('unknown_lead', 'No lead was captured under this ID');
      if (state.notification.status === 'sent') return [];
      // The same attempt reported twice (the job retried its own bookkeeping) counts once.
      if (command.attempt <= state.notification.attempts) return [];
      const { attempt, error, nextAttemptAt, at } = command;
      return [{ type: 'LeadNotificationFailed', data: { leadId: state.leadId, attempt, error, nextAttemptAt, failedAt: at } }];
    }
    default:
      return assertNever(command);
  }
};

const evolve = (state: LeadState, event: LeadEvent): LeadState => {
  switch (event.type) {
    case 'ContactLeadCaptured':
      return {
        status: 'captured',
        leadId: event.data.leadId,
        capturedAt: event.data.capturedAt,
        // Due as soon as it is captured.
        notification: { status: 'pending', attempts: 0, nextAttemptAt: event.data.capturedAt, sentAt: null, lastError: null },
      };
    case 'LeadNotificationSent':
      if (state.status === 'absent') return state;
      return {
        ...state,
        notification: { ...state.notification, status: 'sent', nextAttemptAt: null, sentAt: event.data.sentAt },
      };
    case 'LeadNotificationFailed': {
      if (state.status === 'absent') return state;
      const attempts = Math.max(state.notification.attempts, event.data.attempt);
      const abandoned = attempts >= maxNotificationAttempts;
      return {
        ...state,
        notification: {
          ...state.notification,
          status: abandoned ? 'abandoned' : 'failed',
          attempts,
          nextAttemptAt: abandoned ? null : event.data.nextAttemptAt,
          lastError: event.data.error,
        },
      };
    }
    default:
      return assertNever(event);
  }
};

export const leadDecider: Decider<LeadState, LeadCommand, LeadEvent> = {
  initialState: () => ({ status: 'absent' }),
  evolve,
  decide,
};
