import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../../src/events/command-context.ts';
import { leadStreamName } from '../../../../src/events/leads/events.ts';
import { findLead } from '../../../../src/projections/leads/queries.ts';
import { startApi, type ApiHarness } from '../../../support/api-harness.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../../../support/smtp-test-server.ts';

const now = '2026-03-12T09:30:00.000Z';
const frozenClock: Clock = { now: () => new Date(now) };

const lead = {
  name: '  Élodie Marchand ',
  email: ' elodie.marchand@example.fr ',
  phone: '+33 6 12 34 56 78',
  project_name: 'Cuisine équipée, 12 m²',
};

describe('POST /api/contact-lead', () => {
  let api: ApiHarness;
  let smtp: SmtpTestServer;
  let token: string;
  // One service for the file: each test records its own leads (fresh IDs) and compares the log with itself.
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    api = await startApi({ clock: frozenClock, env: { SMTP_URL: smtp.url } });
    token = await api.tokenFor('core', 'storefront');
  });
  afterAll(async () => {
    await api.close();
    await smtp.close();
  });

  const post = (body: unknown) =>
    api.request
      .post('/api/contact-lead')
      .set('Authorization', `Bearer ${token}`)
      .send(body as object);
  const recorded = async (leadId: string) => (await api.runtime.eventStore.readStream(leadStreamName(leadId))).map(({ type, data }) => ({ type, data }));

  it('when name, email, phone and project are given, it records the lead trimmed and answers 201 with its ID', async () => {
    const response = await post(lead);

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      lead_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      message: 'Lead recorded; the team will be notified by e-mail',
    });
    expect(await recorded(response.body.lead_id)).toEqual([
      {
        type: 'ContactLeadCaptured',
        data: {
          leadId: response.body.lead_id,
          name: 'Élodie Marchand',
          email: 'elodie.marchand@example.fr',
          phone: '+33 6 12 34 56 78',
          projectName: 'Cuisine équipée, 12 m²',
          capturedAt: now,
        },
      },
    ]);
  });

  it('when a lead is recorded, the e-mail is left to the job: no message reaches the mail server and the notification is pending', async () => {
    const response = await post(lead);

    expect(response.status).toBe(201);
    const document = await findLead(api.runtime.readStore, response.body.lead_id);
    expect(document?.notification).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: now, sentAt: null });
    expect(smtp.received).toEqual([]);
  });

  it('when only name and email are given, phone and project are recorded as not given, and blank ones likewise', async () => {
    const bare = await post({ name: 'Marc Lefèvre', email: 'marc@example.com' });
    const blank = await post({ name: 'Marc Lefèvre', email: 'marc@example.com', phone: '  ', project_name: null });

    for (const response of [bare, blank]) {
      expect(response.status).toBe(201);
      const [captured] = await recorded(response.body.lead_id);
      expect(captured?.data).toMatchObject({ phone: null, projectName: null });
    }
  });

  it('when no SMTP server is configured, the request still writes no mail file', async () => {
    const plain = await startApi({ clock: frozenClock });
    const response = await plain.request
      .post('/api/contact-lead')
      .set('Authorization', `Bearer ${await plain.tokenFor('core')}`)
      .send({ name: 'Marc Lefèvre', email: 'marc@example.com' });

    expect(response.status).toBe(201);
    expect(existsSync(path.join(plain.dataDir, 'mail'))).toBe(false);
    await plain.close();
  });

  describe('when the input is invalid, it answers 400 naming the field and records nothing', () => {
    const cases: Array<[string, unknown, string]> = [
      ['name is missing', { email: 'marc@example.com' }, 'name: is required'],
      ['name is blank', { name: '   ', email: 'marc@example.com' }, 'name: is required'],
      ['name is not a string', { name: 42, email: 'marc@example.com' }, 'name: must be a string'],
      ['name is too long', { name: 'x'.repeat(201), email: 'marc@example.com' }, 'name: must be at most 200 characters'],
      ['name holds a line break', { name: 'Marc\r\nBcc: x@example.com', email: 'marc@example.com' }, 'name: must be a single line without control characters'],
      ['email is missing', { name: 'Marc' }, 'email: is required'],
      ['email is not an address', { name: 'Marc', email: 'marc.example.com' }, 'email: must be a valid e-mail address'],
      [
        'phone has letters',
        { name: 'Marc', email: 'marc@example.com', phone: 'call me' },
        'phone: must be a phone number: digits, spaces and + . - ( ) /, 6 to 15 digits',
      ],
      [
        'phone has too few digits',
        { name: 'Marc', email: 'marc@example.com', phone: '12 34' },
        'phone: must be a phone number: digits, spaces and + . - ( ) /, 6 to 15 digits',
      ],
      [
        'phone has too many digits',
        { name: 'Marc', email: 'marc@example.com', phone: '+33 1234567890123456' },
        'phone: must be a phone number: digits, spaces and + . - ( ) /, 6 to 15 digits',
      ],
      ['phone is a number', { name: 'Marc', email: 'marc@example.com', phone: 612345678 }, 'phone: must be a string'],
      ['project_name is too long', { name: 'Marc', email: 'marc@example.com', project_name: 'p'.repeat(501) }, 'project_name: must be at most 500 characters'],
      ['the body is an array', [lead], 'body: must be a JSON object'],
    ];
    for (const [state, body, message] of cases) {
      it(`when ${state}, 400 "${message}"`, async () => {
        const head = await api.runtime.eventStore.headPosition();

        const response = await post(body);

        expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: { success: false, error: 'invalid_request', message } });
        expect(await api.runtime.eventStore.headPosition()).toBe(head);
      });
    }
  });

  describe('when the caller is not a core client, it answers 401 and records nothing', () => {
    const unauthorized = { success: false, error: 'Unauthorized', message: 'Invalid or missing Bearer token' };
    for (const group of ['supplier-a', 'supplier-b', 'chatbot', 'analyst'] as const) {
      it(`when the Bearer token is of the ${group} group, 401`, async () => {
        const other = await api.tokenFor(group);
        const head = await api.runtime.eventStore.headPosition();

        const response = await api.request.post('/api/contact-lead').set('Authorization', `Bearer ${other}`).send(lead);

        expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: unauthorized });
        expect(await api.runtime.eventStore.headPosition()).toBe(head);
      });
    }

    it('when no token is given, 401', async () => {
      const response = await api.request.post('/api/contact-lead').send(lead);
      expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: unauthorized });
    });

    it('when the core token is sent as X-API-Token instead of Bearer, 401', async () => {
      const response = await api.request.post('/api/contact-lead').set('X-API-Token', token).send(lead);
      expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: unauthorized });
    });
  });
});
