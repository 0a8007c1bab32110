import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maxNotificationAttempts } from '../../src/events/leads/lead-decider.ts';
import { runLeadNotificationsOnce } from '../../src/jobs/lead-notifications.ts';
import { leadsProjection } from '../../src/projections/leads/leads-projection.ts';
import { leadsCollection, type LeadDocument } from '../../src/projections/leads/lead-document.ts';
import { findLead } from '../../src/projections/leads/queries.ts';
import { startApi, type ApiHarness } from '../support/api-harness.ts';
import { eventually } from '../support/eventually.ts';
import { freeLoopbackPort, readMessage, startSmtpTestServer, type SmtpTestServer } from '../support/smtp-test-server.ts';
import { elodie, leadEvents, mailSettings, manualClock, recordLead, type ManualClock } from './lead-fixtures.ts';

const minute = 60_000;

describe('the lead notification job, over SMTP', () => {
  let clock: ManualClock;
  let smtp: SmtpTestServer | undefined;
  let api: ApiHarness;
  beforeEach(() => {
    clock = manualClock();
    smtp = undefined;
  });
  afterEach(async () => {
    await api.close();
    await smtp?.close();
  });

  const startWithSmtp = async (options: { up: boolean; rejectWhen?: (raw: string) => boolean }) => {
    const port = await freeLoopbackPort();
    if (options.up) smtp = await startSmtpTestServer({ port, rejectWhen: options.rejectWhen });
    api = await startApi({ clock, env: { SMTP_URL: `smtp://127.0.0.1:${port}`, ...mailSettings } });
    return port;
  };

  it("when a lead is posted to the API, one run mails the team the lead's details, replying to the lead, and records the send", async () => {
    await startWithSmtp({ up: true });
    const posted = await api.request
      .post('/api/contact-lead')
      .set('Authorization', `Bearer ${await api.tokenFor('core')}`)
      .send({ name: elodie.name, email: elodie.email, phone: elodie.phone, project_name: elodie.projectName });
    const leadId: string = posted.body.lead_id;

    const run = await runLeadNotificationsOnce(api.runtime);

    expect(run).toEqual({ status: 'completed', sent: [leadId], failed: [], deferred: [] });
    const [mail] = await smtp!.waitForMessages(1);
    expect(mail?.envelope).toEqual({ from: 'commandes@meubles-example.fr', to: ['equipe-pro@meubles-example.fr'] });
    expect(mail?.header('from')).toBe('Service commandes <commandes@meubles-example.fr>');
    expect(mail?.header('to')).toBe('equipe-pro@meubles-example.fr');
    expect(mail?.header('reply-to')).toBe('Élodie Marchand <elodie.marchand@example.fr>');
    expect(mail?.header('subject')).toBe('Nouveau contact / New lead : Élodie Marchand');
    expect(mail?.header('message-id')).toBe(`<lead-${leadId}@meubles-example.fr>`);
    for (const line of [
      'Nom : Élodie Marchand',
      'E-mail : elodie.marchand@example.fr',
      'Téléphone : +33 6 12 34 56 78',
      'Projet : Cuisine équipée pour un gîte',
      'Reçu le : jeudi 12 mars 2026 à 10:30 (Europe/Paris)',
      `Référence : ${leadId}`,
      'Name: Élodie Marchand',
      'Email: elodie.marchand@example.fr',
      'Phone: +33 6 12 34 56 78',
      'Project: Cuisine équipée pour un gîte',
      'Received: 2026-03-12T09:30:00.000Z',
    ]) {
      expect(mail?.text.split('\n')).toContain(line);
    }
    expect(await leadEvents(api.runtime, leadId)).toEqual([
      { type: 'ContactLeadCaptured', data: expect.objectContaining({ leadId }) },
      {
        type: 'LeadNotificationSent',
        data: { leadId, attempt: 1, transport: 'smtp', messageId: `<lead-${leadId}@meubles-example.fr>`, sentAt: clock.iso() },
      },
    ]);
    expect((await findLead(api.runtime.readStore, leadId))?.notification.status).toBe('sent');
  });

  it('when a lead gave no phone and no project, the mail says they were not given', async () => {
    await startWithSmtp({ up: true });
    await recordLead(api.runtime, { phone: null, projectName: null });

    await runLeadNotificationsOnce(api.runtime);

    const [mail] = await smtp!.waitForMessages(1);
    const lines = mail?.text.split('\n');
    expect(lines).toEqual(expect.arrayContaining(['Téléphone : non renseigné', 'Projet : non renseigné', 'Phone: not given', 'Project: not given']));
  });

  it('when the lead has been mailed, later runs send nothing and record nothing', async () => {
    await startWithSmtp({ up: true });
    const leadId = await recordLead(api.runtime);
    await runLeadNotificationsOnce(api.runtime);
    clock.advance(24 * 60 * minute);

    const again = await runLeadNotificationsOnce(api.runtime);

    expect(again).toEqual({ status: 'completed', sent: [], failed: [], deferred: [] });
    expect(smtp!.received).toHaveLength(1);
    expect((await leadEvents(api.runtime, leadId)).map((event) => event.type)).toEqual(['ContactLeadCaptured', 'LeadNotificationSent']);
  });

  it('when the SMTP server is down then up, the mail arrives once, after its back-off, with a failed then a sent attempt recorded', async () => {
    const port = await startWithSmtp({ up: false });
    const leadId = await recordLead(api.runtime);
    const failedAt = clock.iso();

    const whileDown = await runLeadNotificationsOnce(api.runtime);
    smtp = await startSmtpTestServer({ port });
    const beforeRetryIsDue = await runLeadNotificationsOnce(api.runtime);
    clock.advance(minute);
    const retry = await runLeadNotificationsOnce(api.runtime);
    const afterwards = await runLeadNotificationsOnce(api.runtime);

    expect(whileDown).toEqual({ status: 'completed', sent: [], failed: [leadId], deferred: [] });
    expect(beforeRetryIsDue).toEqual({ status: 'completed', sent: [], failed: [], deferred: [] });
    expect(retry).toEqual({ status: 'completed', sent: [leadId], failed: [], deferred: [] });
    expect(afterwards).toEqual({ status: 'completed', sent: [], failed: [], deferred: [] });
    expect((await smtp.waitForMessages(1)).map((mail) => mail.header('x-lead-id'))).toEqual([leadId]);
    expect(smtp.received).toHaveLength(1);
    expect(await leadEvents(api.runtime, leadId)).toEqual([
      { type: 'ContactLeadCaptured', data: expect.objectContaining({ leadId }) },
      {
        type: 'LeadNotificationFailed',
        data: {
          leadId,
          attempt: 1,
          error: expect.stringContaining('ECONNREFUSED'),
          nextAttemptAt: new Date(Date.parse(failedAt) + minute).toISOString(),
          failedAt,
        },
      },
      { type: 'LeadNotificationSent', data: expect.objectContaining({ leadId, attempt: 2, transport: 'smtp' }) },
    ]);
  });

  it('when the SMTP server is down, a run stops at the first failure and leaves the other due leads untouched for the next run', async () => {
    await startWithSmtp({ up: false });
    const first = await recordLead(api.runtime, { name: 'Premier Contact' });
    clock.advance(1000);
    const second = await recordLead(api.runtime, { name: 'Second Contact' });

    const run = await runLeadNotificationsOnce(api.runtime);

    expect(run).toEqual({ status: 'completed', sent: [], failed: [first], deferred: [second] });
    expect((await leadEvents(api.runtime, second)).map((event) => event.type)).toEqual(['ContactLeadCaptured']);
  });

  it('when the server refuses one message for good (550), that lead is retried later and the next lead is still sent', async () => {
    let refusing = '';
    await startWithSmtp({ up: true, rejectWhen: (raw) => readMessage(raw).header('x-lead-id') === refusing });
    const refused = await recordLead(api.runtime, { name: 'Refusé Par Le Serveur' });
    refusing = refused;
    clock.advance(1000);
    const accepted = await recordLead(api.runtime);

    const run = await runLeadNotificationsOnce(api.runtime);
    refusing = '';
    clock.advance(minute);
    const retry = await runLeadNotificationsOnce(api.runtime);

    expect(run).toEqual({ status: 'completed', sent: [accepted], failed: [refused], deferred: [] });
    expect(retry).toEqual({ status: 'completed', sent: [refused], failed: [], deferred: [] });
    expect((await smtp!.waitForMessages(2)).map((mail) => mail.header('x-lead-id'))).toEqual([accepted, refused]);
    expect((await leadEvents(api.runtime, refused)).slice(1)).toEqual([
      { type: 'LeadNotificationFailed', data: expect.objectContaining({ attempt: 1, error: expect.stringContaining('550') }) },
      { type: 'LeadNotificationSent', data: expect.objectContaining({ attempt: 2 }) },
    ]);
  });

  it('when the read models are rebuilt from the log after the mail went out, a run sends nothing again', async () => {
    await startWithSmtp({ up: true });
    const leadId = await recordLead(api.runtime);
    await runLeadNotificationsOnce(api.runtime);

    await api.runtime.projections.requestRebuild([leadsProjection.name]);
    await eventually(() => api.runtime.projections.status().find((status) => status.name === leadsProjection.name)?.generation === 2, 30_000);
    const run = await runLeadNotificationsOnce(api.runtime);

    expect((await findLead(api.runtime.readStore, leadId))?.notification.status).toBe('sent');
    expect(run).toEqual({ status: 'completed', sent: [], failed: [], deferred: [] });
    expect(smtp!.received).toHaveLength(1);
  });

  it('when the read model still shows a mailed lead as pending (a rebuild half way), the events decide and nothing is sent', async () => {
    await startWithSmtp({ up: true });
    const leadId = await recordLead(api.runtime);
    await runLeadNotificationsOnce(api.runtime);
    await api.runtime.readStore.collection<LeadDocument>(leadsCollection).updateOne({ _id: leadId }, { $set: { 'notification.status': 'pending' } });

    const run = await runLeadNotificationsOnce(api.runtime);

    expect(run).toEqual({ status: 'completed', sent: [], failed: [], deferred: [] });
    expect(smtp!.received).toHaveLength(1);
  });

  it('when two runs start together, one sends and the other answers busy: the lead gets one mail', async () => {
    await startWithSmtp({ up: true });
    const leadId = await recordLead(api.runtime);

    const runs = await Promise.all([runLeadNotificationsOnce(api.runtime), runLeadNotificationsOnce(api.runtime)]);

    expect(runs).toEqual([{ status: 'completed', sent: [leadId], failed: [], deferred: [] }, { status: 'busy' }]);
    expect(smtp!.received).toHaveLength(1);
  });

  it(`when ${maxNotificationAttempts} attempts have failed, the job gives the lead up and sends nothing once the server is back`, async () => {
    const port = await startWithSmtp({ up: false });
    const leadId = await recordLead(api.runtime);
    for (let attempt = 1; attempt <= maxNotificationAttempts; attempt++) {
      await runLeadNotificationsOnce(api.runtime);
      clock.advance(60 * minute);
    }
    smtp = await startSmtpTestServer({ port });

    const run = await runLeadNotificationsOnce(api.runtime);

    expect(run).toEqual({ status: 'completed', sent: [], failed: [], deferred: [] });
    expect(smtp.received).toHaveLength(0);
    const events = await leadEvents(api.runtime, leadId);
    expect(events.filter((event) => event.type === 'LeadNotificationFailed')).toHaveLength(maxNotificationAttempts);
  });
});
