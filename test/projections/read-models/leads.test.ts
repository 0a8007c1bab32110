import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { maxNotificationAttempts } from '../../../src/events/leads/lead-decider.ts';
import { leadsProjection } from '../../../src/projections/leads/leads-projection.ts';
import { findLead, pendingLeadNotifications } from '../../../src/projections/leads/queries.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { eventLog } from './event-log.ts';
import { project } from './project.ts';
import { buildScenario } from './scenario.ts';

const projections = [leadsProjection];

const given = async () => {
  const store = await openTestReadStore();
  const { events, leads } = buildScenario();
  await project(store, projections, events);
  return { store, leads };
};

describe('leads read model', () => {
  it('when a lead was captured and notified, the document tells the notification sent', async () => {
    const { store, leads } = await given();
    expect(await findLead(store, leads.sent)).toEqual({
      _id: leads.sent,
      _position: expect.any(Number),
      name: 'Alice',
      email: 'alice@example.com',
      phone: null,
      projectName: 'Hôtel',
      capturedAt: '2025-03-15T09:00:00+01:00',
      notification: { status: 'sent', attempts: 1, nextAttemptAt: null, sentAt: '2025-03-15T09:00:05+01:00', lastError: null, messageId: '<m1@example.com>' },
    });
  });

  it('when a notification failed, the document tells the error and when to try again', async () => {
    const { store, leads } = await given();
    expect((await findLead(store, leads.failed))?.notification).toEqual({
      status: 'failed',
      attempts: 1,
      nextAttemptAt: '2025-03-15T08:05:00.000Z',
      sentAt: null,
      lastError: 'connection refused',
      messageId: null,
    });
  });

  it('when a lead was just captured, its notification is due at once', async () => {
    const { store, leads } = await given();
    expect((await findLead(store, leads.pending))?.notification).toMatchObject({ status: 'pending', attempts: 0 });
    const due = await pendingLeadNotifications(store, '2025-03-15T09:01:00+01:00');
    expect(due.map((lead) => lead._id)).toEqual([leads.pending]);
  });

  it('when the retry time of a failed notification is reached, it is due again; a sent one never is', async () => {
    const { store, leads } = await given();
    const due = await pendingLeadNotifications(store, '2025-03-15T08:05:00Z');
    expect(due.map((lead) => lead._id)).toEqual([leads.pending, leads.failed]);
    expect((await pendingLeadNotifications(store, '2025-03-15T08:05:00Z', 1)).map((lead) => lead._id)).toEqual([leads.pending]);
  });

  it('when the last allowed attempt failed, the lead is abandoned and never due again, so it does not hold back newer leads', async () => {
    const store = await openTestReadStore();
    const log = eventLog();
    const [given_up, newer] = [randomUUID(), randomUUID()];
    for (const [leadId, capturedAt] of [
      [given_up, '2025-03-01T09:00:00Z'],
      [newer, '2025-03-02T09:00:00Z'],
    ] as const) {
      log.record(`lead-${leadId}`, {
        type: 'ContactLeadCaptured',
        data: { leadId, name: 'Dan', email: 'dan@example.com', phone: null, projectName: null, capturedAt },
      });
    }
    for (let attempt = 1; attempt <= maxNotificationAttempts; attempt += 1) {
      log.record(`lead-${given_up}`, {
        type: 'LeadNotificationFailed',
        data: { leadId: given_up, attempt, error: 'connection refused', nextAttemptAt: '2025-03-01T10:00:00Z', failedAt: '2025-03-01T09:30:00Z' },
      });
    }
    await project(store, projections, log.events);

    expect((await findLead(store, given_up))?.notification).toMatchObject({ status: 'abandoned', attempts: maxNotificationAttempts, nextAttemptAt: null });
    expect((await pendingLeadNotifications(store, '2025-03-10T00:00:00Z', 1)).map((lead) => lead._id)).toEqual([newer]);
  });
});
