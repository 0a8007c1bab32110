import { isAttemptDue } from '../retry-schedule.ts';
import { assertNever, type Decider } from '../decider.ts';
import { finalPlatformStatuses, type EInvoicingEvent, type PlatformStatus, type TransmissionKind } from './events.ts';

/**
 * One document owed to the platform, `platformtransmission-<documentId>`: its attempts, each recorded
 * once answered (sent, or failed with its next attempt), and the statuses the platform gave it. Sent
 * is recorded once: a second answer for a document already sent (its resend after a crash, which the
 * platform recognises by its identifier) records nothing.
 */

export type PlatformTransmissionState = {
  attempts: number;
  sent: boolean;
  nextAttemptAt: string | null;
  /** The last status the platform gave; null before the first. */
  platformStatus: PlatformStatus | null;
};

export type TransmissionRef = { documentId: string; kind: TransmissionKind; date: string };

export type PlatformTransmissionCommand =
  | ({ type: 'RecordTransmissionSent'; status: number; platformReference: string | null; at: string } & TransmissionRef)
  | ({ type: 'RecordTransmissionFailed'; status: number | null; error: string; nextAttemptAt: string; at: string } & TransmissionRef)
  | ({ type: 'RecordPlatformStatus'; status: PlatformStatus; reason: string | null; at: string } & TransmissionRef);

/** Not sent yet, and its next attempt (if one was set) has come. */
export const isTransmissionDue = (state: PlatformTransmissionState, now: Date): boolean => !state.sent && isAttemptDue(state.nextAttemptAt, now);

/** Sent, and the platform has not yet given it a status that ends its lifecycle. */
export const isAwaitingStatus = (state: PlatformTransmissionState): boolean =>
  state.sent && (state.platformStatus === null || !finalPlatformStatuses.includes(state.platformStatus));

const decide = (command: PlatformTransmissionCommand, state: PlatformTransmissionState): readonly EInvoicingEvent[] => {
  const ref = { documentId: command.documentId, kind: command.kind, date: command.date };
  switch (command.type) {
    case 'RecordTransmissionSent':
      if (state.sent) return [];
      return [
        {
          type: 'PlatformTransmissionSent',
          data: { ...ref, attempt: state.attempts + 1, status: command.status, platformReference: command.platformReference, sentAt: command.at },
        },
      ];
    case 'RecordTransmissionFailed':
      if (state.sent) return [];
      return [
        {
          type: 'PlatformTransmissionFailed',
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
    case 'RecordPlatformStatus':
      // A status repeated by a poll is the same fact: recorded when it changes only.
      if (state.platformStatus === command.status) return [];
      return [{ type: 'PlatformStatusReceived', data: { ...ref, status: command.status, reason: command.reason, receivedAt: command.at } }];
    default:
      return assertNever(command);
  }
};

const evolve = (state: PlatformTransmissionState, event: EInvoicingEvent): PlatformTransmissionState => {
  switch (event.type) {
    case 'PlatformTransmissionSent':
      return { ...state, attempts: event.data.attempt, sent: true, nextAttemptAt: null };
    case 'PlatformTransmissionFailed':
      return { ...state, attempts: event.data.attempt, nextAttemptAt: event.data.nextAttemptAt };
    case 'PlatformStatusReceived':
      // A status is the platform's word that it has the document, even if the answer to its sending was lost.
      return { ...state, sent: true, nextAttemptAt: null, platformStatus: event.data.status };
    default:
      return assertNever(event);
  }
};

export const platformTransmissionDecider: Decider<PlatformTransmissionState, PlatformTransmissionCommand, EInvoicingEvent> = {
  initialState: () => ({ attempts: 0, sent: false, nextAttemptAt: null, platformStatus: null }),
  evolve,
  decide,
};
