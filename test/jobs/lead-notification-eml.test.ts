import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runLeadNotificationsOnce } from '../../src/jobs/lead-notifications.ts';
import { fileTransport } from '../../src/mail/mail-transport.ts';
import { startApi, type ApiHarness } from '../support/api-harness.ts';
import { readMessage } from '../support/smtp-test-server.ts';
import { leadEvents, mailSettings, manualClock, recordLead, type ManualClock } from './lead-fixtures.ts';

describe('the lead notification job, without SMTP_URL', () => {
  let clock: ManualClock;
  let api: ApiHarness;
  beforeEach(async () => {
    clock = manualClock();
    api = await startApi({ clock, env: mailSettings });
  });
  afterEach(async () => api.close());

  const mailDir = () => path.join(api.dataDir, 'mail');

  it("when a lead is due, the run writes the message as DATA_DIR/mail/<lead-id>.eml with the lead's details and records it sent", async () => {
    const leadId = await recordLead(api.runtime);

    const run = await runLeadNotificationsOnce(api.runtime);

    expect(run).toEqual({ status: 'completed', sent: [leadId], failed: [], deferred: [] });
    expect(await readdir(mailDir())).toEqual([`${leadId}.eml`]);
    const message = readMessage(await readFile(path.join(mailDir(), `${leadId}.eml`), 'utf8'));
    expect(message.header('from')).toBe('Service commandes <commandes@meubles-example.fr>');
    expect(message.header('to')).toBe('equipe-pro@meubles-example.fr');
    expect(message.header('reply-to')).toBe('Élodie Marchand <elodie.marchand@example.fr>');
    expect(message.header('subject')).toBe('Nouveau contact / New lead : Élodie Marchand');
    expect(message.header('message-id')).toBe(`<lead-${leadId}@meubles-example.fr>`);
    expect(message.text.split('\n')).toEqual(
      expect.arrayContaining([
        'Nom : Élodie Marchand',
        'E-mail : elodie.marchand@example.fr',
        'Téléphone : +33 6 12 34 56 78',
        'Projet : Cuisine équipée pour un gîte',
      ]),
    );
    expect((await leadEvents(api.runtime, leadId))[1]).toEqual({
      type: 'LeadNotificationSent',
      data: { leadId, attempt: 1, transport: 'file', messageId: `<lead-${leadId}@meubles-example.fr>`, sentAt: clock.iso() },
    });
  });

  it('when the lead was written once, a later run writes nothing more', async () => {
    await recordLead(api.runtime);
    await runLeadNotificationsOnce(api.runtime);
    clock.advance(3_600_000);

    const again = await runLeadNotificationsOnce(api.runtime);

    expect(again).toEqual({ status: 'completed', sent: [], failed: [], deferred: [] });
    expect(await readdir(mailDir())).toHaveLength(1);
  });

  it('when the file key is not a plain identifier, the file transport refuses to write outside its directory', async () => {
    const transport = fileTransport(mailDir());

    await expect(transport.send({ key: '../escape', message: { from: 'a@example.fr', to: 'b@example.fr', text: 'x' } })).rejects.toThrow(
      'Unsafe mail file name',
    );
    await expect(readdir(api.dataDir)).resolves.not.toContain('escape.eml');
  });
});
