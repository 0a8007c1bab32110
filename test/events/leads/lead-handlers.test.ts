import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../../src/events/command-context.ts';
import type { WriteDeps } from '../../../src/events/command-handler.ts';
import { readDomainStream } from '../../../src/events/domain-store.ts';
import { leadStreamName, type LeadEvent } from '../../../src/events/leads/events.ts';
import { captureLead, recordNotificationFailed, recordNotificationSent } from '../../../src/events/leads/lead-handlers.ts';
import { openSqliteEventStore, type SqliteEventStore } from '../../../src/events/store/sqlite-event-store.ts';

const now = new Date('2025-03-14T09:30:00.000Z');
let directory: string;
let store: SqliteEventStore;
let deps: WriteDeps;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'leads-'));
  store = openSqliteEventStore({ file: join(directory, 'events.db') });
  deps = { eventStore: store, clock: { now: () => now } };
});

afterEach(async () => {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

const lead = { name: 'Camille Martin', email: 'camille.martin@example.com', phone: null, projectName: 'Showroom Nantes' };

describe('lead handlers on the embedded store', () => {
  it('when a lead is captured, its stream holds the lead stamped with the clock', async () => {
    const { leadId } = await captureLead(deps, lead, systemContext());
    const { events } = await readDomainStream<LeadEvent>(store, leadStreamName(leadId));
    expect(events.map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'ContactLeadCaptured', data: { leadId, ...lead, capturedAt: now.toISOString() } },
    ]);
  });

  it('when two leads are captured, they get different IDs', async () => {
    const first = await captureLead(deps, lead, systemContext());
    const second = await captureLead(deps, lead, systemContext());
    expect(first.leadId).not.toBe(second.leadId);
  });

  it('when an attempt fails, the next one is scheduled after the back-off delay', async () => {
    const { leadId } = await captureLead(deps, lead, systemContext());
    await recordNotificationFailed(deps, { leadId, attempt: 1, error: 'ECONNREFUSED' }, systemContext());
    const outcome = await recordNotificationFailed(deps, { leadId, attempt: 2, error: 'ETIMEDOUT' }, systemContext());
    expect(outcome).toMatchObject({
      status: 'recorded',
      notification: { status: 'failed', attempts: 2, nextAttemptAt: '2025-03-14T09:32:00.000Z', sentAt: null, lastError: 'ETIMEDOUT' },
    });
  });

  it('when a transport error is very long, the recorded error is cut to 2000 characters', async () => {
    const { leadId } = await captureLead(deps, lead, systemContext());
    const outcome = await recordNotificationFailed(deps, { leadId, attempt: 1, error: 'x'.repeat(5000) }, systemContext());
    expect(outcome.status === 'recorded' && outcome.notification.lastError?.length).toBe(2000);
  });

  it('when the sending is reported twice, it is recorded once', async () => {
    const { leadId } = await captureLead(deps, lead, systemContext());
    const report = { leadId, attempt: 1, transport: 'smtp', messageId: '<m1@mail.example.com>' } as const;
    const first = await recordNotificationSent(deps, report, systemContext());
    const head = await store.headPosition();
    const second = await recordNotificationSent(deps, report, systemContext());
    expect(first.status).toBe('recorded');
    expect(second).toEqual({ status: 'unchanged', notification: expect.objectContaining({ status: 'sent', sentAt: now.toISOString() }) });
    expect(await store.headPosition()).toBe(head);
  });

  it('when the lead does not exist, recording an outcome is refused with unknown_lead and nothing is recorded', async () => {
    const outcome = await recordNotificationSent(
      deps,
      { leadId: '6f1c1a52-3f0e-4c1e-9a57-0d6d7b0f2b11', attempt: 1, transport: 'file', messageId: 'm' },
      systemContext(),
    );
    expect(outcome.status === 'refused' && outcome.refusal.code).toBe('unknown_lead');
    expect(await store.headPosition()).toBe(-1);
  });
});
