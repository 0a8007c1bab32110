import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fold } from '../../../src/events/decider.ts';
import type { LeadEvent } from '../../../src/events/leads/events.ts';
import {
  isNotificationDue,
  leadDecider,
  maxNotificationAttempts,
  nextAttemptDelay,
  type CaptureLead,
  type RecordLeadNotificationFailed,
  type RecordLeadNotificationSent,
} from '../../../src/events/leads/lead-decider.ts';
import { deciderSpec } from '../../support/decider-spec.ts';

const spec = deciderSpec(leadDecider);
const at = '2025-03-14T09:30:00.000Z';

const capture = (leadId: string): CaptureLead => ({
  type: 'CaptureLead',
  leadId,
  name: 'Camille Martin',
  email: 'camille.martin@example.com',
  phone: '+33 6 12 34 56 78',
  projectName: 'Agencement boutique Lyon',
  at,
});

const captured = (leadId: string): LeadEvent => ({
  type: 'ContactLeadCaptured',
  data: {
    leadId,
    name: 'Camille Martin',
    email: 'camille.martin@example.com',
    phone: '+33 6 12 34 56 78',
    projectName: 'Agencement boutique Lyon',
    capturedAt: at,
  },
});

const sent = (attempt: number): RecordLeadNotificationSent => ({
  type: 'RecordLeadNotificationSent',
  attempt,
  transport: 'smtp',
  messageId: '<abc@mail.example.com>',
  at: '2025-03-14T09:31:00.000Z',
});

const failed = (attempt: number): RecordLeadNotificationFailed => ({
  type: 'RecordLeadNotificationFailed',
  attempt,
  error: 'ECONNREFUSED',
  nextAttemptAt: '2025-03-14T09:32:00.000Z',
  at: '2025-03-14T09:31:00.000Z',
});

const sentEvent = (leadId: string, attempt: number): LeadEvent => ({
  type: 'LeadNotificationSent',
  data: { leadId, attempt, transport: 'smtp', messageId: '<abc@mail.example.com>', sentAt: '2025-03-14T09:31:00.000Z' },
});

const failedEvent = (leadId: string, attempt: number): LeadEvent => ({
  type: 'LeadNotificationFailed',
  data: { leadId, attempt, error: 'ECONNREFUSED', nextAttemptAt: '2025-03-14T09:32:00.000Z', failedAt: '2025-03-14T09:31:00.000Z' },
});

describe('capturing a lead', () => {
  it('when the lead is new, it is captured', () => {
    const leadId = randomUUID();
    spec
      .given([])
      .when(capture(leadId))
      .then([captured(leadId)]);
  });

  it('when the lead stream already exists, it is refused with lead_exists', () => {
    const leadId = randomUUID();
    spec
      .given([captured(leadId)])
      .when(capture(leadId))
      .thenRefused('lead_exists');
  });

  it('when a lead is captured, its notification is pending and due at once', () => {
    const leadId = randomUUID();
    const state = fold(leadDecider, [captured(leadId)]);
    expect(state).toEqual({
      status: 'captured',
      leadId,
      capturedAt: at,
      notification: { status: 'pending', attempts: 0, nextAttemptAt: at, sentAt: null, lastError: null },
    });
  });
});

describe('recording a sent notification', () => {
  it('when the notification is pending, the sending is recorded', () => {
    const leadId = randomUUID();
    spec
      .given([captured(leadId)])
      .when(sent(1))
      .then([sentEvent(leadId, 1)]);
  });

  it('when earlier attempts failed, the sending is recorded', () => {
    const leadId = randomUUID();
    spec
      .given([captured(leadId), failedEvent(leadId, 1)])
      .when(sent(2))
      .then([sentEvent(leadId, 2)]);
  });

  it('when the notification was already sent, nothing happens', () => {
    const leadId = randomUUID();
    spec
      .given([captured(leadId), sentEvent(leadId, 1)])
      .when(sent(2))
      .thenNothingHappens();
  });

  it('when the lead does not exist, it is refused with unknown_lead', () => {
    spec.given([]).when(sent(1)).thenRefused('unknown_lead');
  });

  it('when the notification was sent, the state says so and nothing is due any more', () => {
    const leadId = randomUUID();
    const state = fold(leadDecider, [captured(leadId), failedEvent(leadId, 1), sentEvent(leadId, 2)]);
    expect(state.status === 'captured' && state.notification).toEqual({
      status: 'sent',
      attempts: 1,
      nextAttemptAt: null,
      sentAt: '2025-03-14T09:31:00.000Z',
      lastError: 'ECONNREFUSED',
    });
  });
});

describe('recording a failed notification', () => {
  it('when the notification is pending, the failure is recorded', () => {
    const leadId = randomUUID();
    spec
      .given([captured(leadId)])
      .when(failed(1))
      .then([failedEvent(leadId, 1)]);
  });

  it('when the notification was already sent, nothing happens', () => {
    const leadId = randomUUID();
    spec
      .given([captured(leadId), sentEvent(leadId, 1)])
      .when(failed(2))
      .thenNothingHappens();
  });

  it('when the same attempt was already recorded as failed, nothing happens', () => {
    const leadId = randomUUID();
    spec
      .given([captured(leadId), failedEvent(leadId, 1)])
      .when(failed(1))
      .thenNothingHappens();
  });

  it('when the lead does not exist, it is refused with unknown_lead', () => {
    spec.given([]).when(failed(1)).thenRefused('unknown_lead');
  });

  it('when an attempt failed, the state is failed with the next attempt scheduled and the error kept', () => {
    const leadId = randomUUID();
    const state = fold(leadDecider, [captured(leadId), failedEvent(leadId, 1)]);
    expect(state.status === 'captured' && state.notification).toEqual({
      status: 'failed',
      attempts: 1,
      nextAttemptAt: '2025-03-14T09:32:00.000Z',
      sentAt: null,
      lastError: 'ECONNREFUSED',
    });
  });

  it(`when ${maxNotificationAttempts} attempts failed, the notification is abandoned and no longer due`, () => {
    const leadId = randomUUID();
    const failures = Array.from({ length: maxNotificationAttempts }, (_, index) => failedEvent(leadId, index + 1));
    const before = fold(leadDecider, [captured(leadId), ...failures.slice(0, -1)]);
    const after = fold(leadDecider, [captured(leadId), ...failures]);
    expect(before.status === 'captured' && before.notification.status).toBe('failed');
    expect(after.status === 'captured' && after.notification).toMatchObject({ status: 'abandoned', attempts: maxNotificationAttempts, nextAttemptAt: null });
    if (after.status === 'captured') expect(isNotificationDue(after.notification, new Date('2030-01-01T00:00:00Z'))).toBe(false);
  });

  it('when the notification was abandoned, a manual sending can still be recorded', () => {
    const leadId = randomUUID();
    const failures = Array.from({ length: maxNotificationAttempts }, (_, index) => failedEvent(leadId, index + 1));
    spec
      .given([captured(leadId), ...failures])
      .when(sent(13))
      .then([sentEvent(leadId, 13)]);
  });
});

describe('when the notification is due', () => {
  const pending = { status: 'pending', attempts: 0, nextAttemptAt: at, sentAt: null, lastError: null } as const;

  it('when it is pending and its time has come, it is due', () => {
    expect(isNotificationDue(pending, new Date(at))).toBe(true);
  });

  it('when a failed attempt is scheduled later, it is not due yet', () => {
    const notification = { ...pending, status: 'failed', attempts: 1, nextAttemptAt: '2025-03-14T09:32:00.000Z' } as const;
    expect(isNotificationDue(notification, new Date('2025-03-14T09:31:59.999Z'))).toBe(false);
    expect(isNotificationDue(notification, new Date('2025-03-14T09:32:00.000Z'))).toBe(true);
  });

  it('when it was sent, it is not due', () => {
    expect(isNotificationDue({ ...pending, status: 'sent', nextAttemptAt: null, sentAt: at }, new Date('2030-01-01T00:00:00Z'))).toBe(false);
  });
});

describe('back-off between attempts', () => {
  const minute = 60_000;

  it('when attempts fail in turn, the delay doubles from one minute', () => {
    expect([1, 2, 3, 4, 5, 6].map(nextAttemptDelay)).toEqual([1, 2, 4, 8, 16, 32].map((m) => m * minute));
  });

  it('when the doubled delay would pass one hour, it is capped at one hour', () => {
    expect(nextAttemptDelay(7)).toBe(60 * minute);
    expect(nextAttemptDelay(12)).toBe(60 * minute);
    expect(nextAttemptDelay(1000)).toBe(60 * minute);
  });
});
