import { describe, expect, it } from 'vitest';
import { fold } from '../../../src/events/decider.ts';
import type { EInvoicingEvent } from '../../../src/events/e-invoicing/events.ts';
import { isAwaitingStatus, isTransmissionDue, platformTransmissionDecider } from '../../../src/events/e-invoicing/platform-transmission-decider.ts';
import { deciderSpec } from '../../support/decider-spec.ts';

const ref = { documentId: 'FA-2026-7', kind: 'e-invoice' as const, date: '2026-10-05' };
const at = '2026-10-05T08:00:00.000Z';
const later = '2026-10-05T08:00:30.000Z';
const failed: EInvoicingEvent = {
  type: 'PlatformTransmissionFailed',
  data: { ...ref, attempt: 1, status: 503, error: 'refused by the platform (HTTP 503)', nextAttemptAt: later, failedAt: at },
};
const sent: EInvoicingEvent = { type: 'PlatformTransmissionSent', data: { ...ref, attempt: 2, status: 201, platformReference: 'pa-1', sentAt: later } };
const deposited: EInvoicingEvent = { type: 'PlatformStatusReceived', data: { ...ref, status: 'deposited', reason: null, receivedAt: later } };

describe('a document owed to the platform', () => {
  const spec = deciderSpec(platformTransmissionDecider);

  it('when an attempt fails, it is recorded with its rank and its next attempt, and it is due again then, not before', () => {
    spec
      .given([])
      .when({ type: 'RecordTransmissionFailed', ...ref, status: 503, error: 'refused by the platform (HTTP 503)', nextAttemptAt: later, at })
      .then([failed]);
    const state = fold(platformTransmissionDecider, [failed]);
    expect([isTransmissionDue(state, new Date(at)), isTransmissionDue(state, new Date(later))]).toEqual([false, true]);
  });

  it('when it is sent, it is recorded with the rank of the attempt, and due no more', () => {
    spec
      .given([failed])
      .when({ type: 'RecordTransmissionSent', ...ref, status: 201, platformReference: 'pa-1', at: later })
      .then([sent]);
    expect(isTransmissionDue(fold(platformTransmissionDecider, [failed, sent]), new Date(later))).toBe(false);
  });

  it('when it is sent again after a crash (the platform answering for the same identifier), nothing more is recorded', () => {
    spec
      .given([failed, sent])
      .when({ type: 'RecordTransmissionSent', ...ref, status: 200, platformReference: 'pa-1', at: later })
      .thenNothingHappens();
    spec
      .given([sent])
      .when({ type: 'RecordTransmissionFailed', ...ref, status: null, error: 'not sent', nextAttemptAt: later, at })
      .thenNothingHappens();
  });

  it('when the platform gives a status, it is recorded when it changes only, and a final one ends the reading of its statuses', () => {
    spec
      .given([sent])
      .when({ type: 'RecordPlatformStatus', ...ref, status: 'deposited', reason: null, at: later })
      .then([deposited]);
    spec
      .given([sent, deposited])
      .when({ type: 'RecordPlatformStatus', ...ref, status: 'deposited', reason: null, at: later })
      .thenNothingHappens();
    const rejected: EInvoicingEvent = { type: 'PlatformStatusReceived', data: { ...ref, status: 'rejected', reason: 'doublon', receivedAt: later } };
    spec
      .given([sent, deposited])
      .when({ type: 'RecordPlatformStatus', ...ref, status: 'rejected', reason: 'doublon', at: later })
      .then([rejected]);
    expect([
      isAwaitingStatus(fold(platformTransmissionDecider, [sent, deposited])),
      isAwaitingStatus(fold(platformTransmissionDecider, [sent, rejected])),
    ]).toEqual([true, false]);
  });
});
