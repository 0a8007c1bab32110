import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLeadNotificationJob, type LeadNotificationJob } from '../../src/jobs/lead-notification-schedule.ts';
import { startApi, type ApiHarness } from '../support/api-harness.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../support/smtp-test-server.ts';
import { leadEvents, mailSettings, recordLead } from './lead-fixtures.ts';

describe('the lead notification job on its schedule', () => {
  let smtp: SmtpTestServer;
  let api: ApiHarness;
  let job: LeadNotificationJob | undefined;
  beforeEach(async () => {
    smtp = await startSmtpTestServer();
    api = await startApi({ env: { SMTP_URL: smtp.url, ...mailSettings } });
    job = undefined;
  });
  afterEach(async () => {
    await job?.stop();
    await api.close();
    await smtp.close();
  });

  it('when started every second, a recorded lead is mailed without any manual run, and once stopped it mails no more', async () => {
    const first = await recordLead(api.runtime);
    job = startLeadNotificationJob(api.runtime, { everySeconds: 1 });

    const [mail] = await smtp.waitForMessages(1, 5000);
    await job.stop();
    const second = await recordLead(api.runtime, { name: 'Après Arrêt' });
    await sleep(2500);

    expect(mail?.header('x-lead-id')).toBe(first);
    expect(smtp.received).toHaveLength(1);
    expect((await leadEvents(api.runtime, second)).map((event) => event.type)).toEqual(['ContactLeadCaptured']);
  });

  it('when the period is not 1 to 59 seconds, starting the job throws and schedules nothing', () => {
    expect(() => startLeadNotificationJob(api.runtime, { everySeconds: 0 })).toThrow(RangeError);
    expect(() => startLeadNotificationJob(api.runtime, { everySeconds: 60 })).toThrow(RangeError);
    expect(() => startLeadNotificationJob(api.runtime, { everySeconds: 1.5 })).toThrow(RangeError);
  });
});
