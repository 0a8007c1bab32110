import ical from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/events/command-context.ts';
import { readDomainStream } from '../../src/events/domain-store.ts';
import { customerMailStreamName, type CustomerMailEvent } from '../../src/events/customer-mails/events.ts';
import { cancelSale } from '../../src/events/sales/cancel-sale.ts';
import { markRefundPaid } from '../../src/events/sales/refunds.ts';
import { shipSupplierLine } from '../../src/events/sales/supplier-lines.ts';
import { runCustomerMailsOnce, writeCustomerMailCheckpoint } from '../../src/jobs/customer-mails.ts';
import { smtpTransport } from '../../src/mail/mail-transport.ts';
import { ConfigError, loadConfig } from '../../src/config/config.ts';
import { runSavAppointmentRemindersOnce } from '../../src/jobs/sav-appointment-reminders.ts';
import { startApi, type ApiHarness } from '../support/api-harness.ts';
import { freeLoopbackPort, startSmtpTestServer, type ReceivedMail, type SmtpTestServer } from '../support/smtp-test-server.ts';
import { importOrder, order, seedCatalog } from '../rest/chatbot/chatbot-api.ts';
import { manualClock, type ManualClock } from './lead-fixtures.ts';

/**
 * The customers' mails, sent by the outbox job from the log to a real SMTP server on loopback. The
 * clock stands on Monday 5 October 2026, 10:00 in Paris; the seller is the demo identity.
 */

const minute = 60_000;
const customer = 'Claire.Martin@example.org';

/** The decoded body of the first MIME part of this content type in a raw message (nested parts included). */
const mimePart = (raw: string, contentType: string): string | null => {
  const start = raw.search(new RegExp(`Content-Type: ${contentType}`, 'i'));
  if (start < 0) return null;
  const rest = raw.slice(start);
  const headersEnd = rest.indexOf('\r\n\r\n');
  const headers = rest.slice(0, headersEnd);
  const body = rest.slice(headersEnd + 4).split(/\r\n--\S{8,}/)[0] ?? '';
  if (/Content-Transfer-Encoding: base64/i.test(headers)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(headers)) {
    return Buffer.from(
      body.replace(/=\r\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_hex, code: string) => String.fromCharCode(parseInt(code, 16))),
      'latin1',
    ).toString('utf8');
  }
  return body;
};

const plainText = (mail: ReceivedMail): string => (mimePart(mail.raw, 'text/plain') ?? '').replace(/\r\n/g, '\n');

describe('the customer mails, over SMTP', () => {
  let clock: ManualClock;
  let smtp: SmtpTestServer;
  let api: ApiHarness;
  let coreToken: string;
  beforeAll(async () => {
    clock = manualClock('2026-10-05T08:00:00.000Z');
    smtp = await startSmtpTestServer({ port: await freeLoopbackPort() });
    api = await startApi({ clock, env: { SMTP_URL: smtp.url, MAIL_FROM: 'Service client <client@meubles-example.fr>' } });
    coreToken = await api.tokenFor('core', 'back-office');
    await seedCatalog(api);
    // The first run starts the job at the log's head: what happened before it is not mailed.
    await runCustomerMailsOnce(api.runtime);
  });
  afterAll(async () => {
    await api.close();
    await smtp.close();
  });

  const post = async (path: string, body: object) => {
    const response = await api.request.post(path).set('Authorization', `Bearer ${coreToken}`).send(body);
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return response.body as Record<string, unknown>;
  };
  const mailEvents = async (stream: string) =>
    (await readDomainStream<CustomerMailEvent>(api.runtime.eventStore, stream)).events.map((event) => ({ type: event.type, data: event.data }));
  const received = (from: number) => smtp.received.slice(from);

  it('when an order ships, a SAV is opened, booked, moved, resolved and closed, and a refund is paid, one run mails each step to the customer, in French, and records each send', async () => {
    const imported = await importOrder(api);
    const before = smtp.received.length;
    await shipSupplierLine(api.runtime.salesDeps, { serviceOrderId: `${imported.incrementId}_${imported.sofa}`, supplier: 'supplier-a' }, systemContext());
    const sav = await post('/api/sale-sav/create-for-sale-product', {
      saleProductId: imported.sofa,
      data: {
        complaint: 'Le pied avant gauche du canapé est fendu.',
        complaint_name: 'Produit endommagé',
        sav_type: 'repair',
        rdv_date: '2026-10-07',
        rdv_time: '09:00',
      },
    });
    const savId = sav.sav_id as number;
    await post(`/api/sale-sav/${savId}/appointment`, { date: '2026-10-08', time: '14:00' });
    await post(`/api/sale-sav/${savId}/resolve`, { resolution: 'Pied remplacé.' });
    await post(`/api/sale-sav/${savId}/close`, {});
    const cancelled = await cancelSale(
      api.runtime.salesDeps,
      { incrementId: imported.incrementId, saleProductIds: [imported.lamp], reason: 'Rupture' },
      systemContext(),
    );
    if (cancelled.status !== 'cancelled' || cancelled.refund === null) throw new Error('expected a refund');
    await markRefundPaid(api.runtime.salesDeps, { incrementId: imported.incrementId, refundId: cancelled.refund.refundId }, systemContext());

    const run = await runCustomerMailsOnce(api.runtime);

    expect(run).toMatchObject({ status: 'completed', failed: [], skipped: [], deferred: [] });
    const mails = received(before);
    expect(mails.map((mail) => mail.header('x-customer-mail'))).toEqual([
      'line_shipped',
      'sav_opened',
      'sav_appointment_booked',
      'sav_appointment_moved',
      'sav_resolved',
      'sav_closed',
      'refund_paid',
    ]);
    for (const mail of mails) {
      expect(mail.envelope).toEqual({ from: 'client@meubles-example.fr', to: [customer] });
      expect(mail.header('from')).toBe('"Maison & Confort" <client@meubles-example.fr>');
      const text = plainText(mail);
      expect(text.startsWith('Bonjour Claire,\n')).toBe(true);
      expect(text).toContain('Maison & Confort, SAS\n12 avenue des Entrepôts, 69200 Vénissieux\nSIRET 12345678200010');
      const html = mimePart(mail.raw, 'text/html') ?? '';
      expect(html).toContain('<p>Bonjour Claire,</p>');
      // No remote image, no tracking pixel.
      expect(html).not.toMatch(/<img|url\(/i);
    }
    const [shipped, opened, booked, moved, resolved, closed, refunded] = mails as [ReceivedMail, ...ReceivedMail[]];
    const trackingNumber = imported.trackingOf(imported.sofa);
    expect(shipped.header('subject')).toBe(`Votre commande ${imported.incrementId} a été expédiée`);
    expect(plainText(shipped).split('\n')).toEqual(
      expect.arrayContaining([
        `Votre article « Canapé 3 places Oslo gris » de la commande ${imported.incrementId} a été expédié.`,
        'Transporteur : Geodis',
        `Numéro de suivi : ${trackingNumber}`,
        `Suivre le colis sur le site du transporteur : https://espace-client.geodis.com/services/destinataires/#/fr/suivi/${trackingNumber}`,
      ]),
    );
    expect(opened?.header('subject')).toBe(`Votre demande SAV n° ${savId} est enregistrée`);
    expect(plainText(opened!)).toContain(`demande de service après-vente n° ${savId} pour la commande ${imported.incrementId} (Canapé 3 places Oslo gris)`);
    expect(booked?.header('subject')).toBe(`Rendez-vous SAV n° ${savId} confirmé`);
    expect(plainText(booked!).split('\n')).toEqual(expect.arrayContaining(['Date : mercredi 7 octobre 2026', 'Créneau : de 09h00 à 11h00']));
    expect(moved?.header('subject')).toBe(`Rendez-vous SAV n° ${savId} déplacé`);
    expect(plainText(moved!).split('\n')).toEqual(expect.arrayContaining(['Date : jeudi 8 octobre 2026', 'Créneau : de 14h00 à 16h00']));
    expect(resolved?.header('subject')).toBe(`Votre demande SAV n° ${savId} est résolue`);
    expect(closed?.header('subject')).toBe(`Votre demande SAV n° ${savId} est clôturée`);
    expect(refunded?.header('subject')).toBe(`Remboursement de votre commande ${imported.incrementId}`);
    expect(plainText(refunded!)).toMatch(new RegExp(`Un remboursement de 259,80\\s€ pour votre commande ${imported.incrementId} a été effectué\\.`));

    // The appointment as an iCalendar file, read back by an independent parser: Paris time, two hours.
    for (const [mail, start, end] of [
      [booked, '2026-10-07T07:00:00.000Z', '2026-10-07T09:00:00.000Z'],
      [moved, '2026-10-08T12:00:00.000Z', '2026-10-08T14:00:00.000Z'],
    ] as const) {
      const calendar = ical.sync.parseICS(mimePart(mail!.raw, 'text/calendar') ?? '');
      const events = Object.values(calendar).filter((component) => component?.type === 'VEVENT');
      expect(events).toHaveLength(1);
      const event = events[0] as ical.VEvent;
      expect(event.start.toISOString()).toBe(start);
      expect(event.end?.toISOString()).toBe(end);
      expect(String(event.summary)).toBe(`Rendez-vous SAV n° ${savId} (Maison & Confort)`);
    }
    expect(mimePart(shipped.raw, 'text/calendar')).toBeNull();

    const sentStream = run.status === 'completed' ? run.sent[0]! : '';
    expect(await mailEvents(sentStream)).toEqual([
      {
        type: 'CustomerMailSent',
        data: {
          kind: 'line_shipped',
          sourceEventId: expect.any(String),
          attempt: 1,
          transport: 'smtp',
          messageId: shipped.header('message-id'),
          sentAt: clock.iso(),
        },
      },
    ]);
    // Nothing of the mail is kept: no address, no body, in any event the run recorded.
    const recorded = JSON.stringify(await api.runtime.eventStore.readAll({ filter: { streamPrefixes: ['customermail-'] } }));
    expect(recorded.toLowerCase()).not.toContain('example.org');
    expect(recorded).not.toContain('Bonjour');
  });

  it('when the log is read again from its start (the checkpoint lost, or read models rebuilt), a run sends nothing again', async () => {
    const before = smtp.received.length;
    await api.runtime.projections.requestRebuild(['sales']);
    await writeCustomerMailCheckpoint(api.runtime, -1);

    const run = await runCustomerMailsOnce(api.runtime);

    expect(run).toEqual({ status: 'completed', sent: [], failed: [], skipped: [], deferred: [] });
    expect(smtp.received.length).toBe(before);
  });

  it('when the SMTP server is down then up, the mail is sent once, after its back-off, with a failed then a sent attempt recorded', async () => {
    const imported = await importOrder(api, order({ increment_id: '100004600' }));
    const before = smtp.received.length;
    await shipSupplierLine(api.runtime.salesDeps, { serviceOrderId: `${imported.incrementId}_${imported.sofa}`, supplier: 'supplier-a' }, systemContext());
    const down = smtpTransport(`smtp://127.0.0.1:${await freeLoopbackPort()}`);

    const whileDown = await runCustomerMailsOnce(api.runtime, down);
    down.close();
    const beforeRetryIsDue = await runCustomerMailsOnce(api.runtime);
    clock.advance(minute);
    const retry = await runCustomerMailsOnce(api.runtime);
    const afterwards = await runCustomerMailsOnce(api.runtime);

    expect(whileDown).toMatchObject({ sent: [], failed: [expect.stringMatching(/^customermail-line_shipped-/)] });
    const stream = whileDown.status === 'completed' ? whileDown.failed[0]! : '';
    expect(beforeRetryIsDue).toEqual({ status: 'completed', sent: [], failed: [], skipped: [], deferred: [] });
    expect(retry).toEqual({ status: 'completed', sent: [stream], failed: [], skipped: [], deferred: [] });
    expect(afterwards).toEqual({ status: 'completed', sent: [], failed: [], skipped: [], deferred: [] });
    expect(received(before).map((mail) => mail.header('subject'))).toEqual([`Votre commande ${imported.incrementId} a été expédiée`]);
    expect((await mailEvents(stream)).map((event) => [event.type, 'attempt' in event.data ? event.data.attempt : null])).toEqual([
      ['CustomerMailFailed', 1],
      ['CustomerMailSent', 2],
    ]);
    expect((await mailEvents(stream))[0]?.data).toMatchObject({ error: expect.stringContaining('ECONNREFUSED') });
  });

  it('when the customer has been erased, they get nothing and the mail is recorded as skipped for that reason', async () => {
    const imported = await importOrder(
      api,
      order({ increment_id: '100004700', customer: { email: 'effacee@example.org', firstname: 'Inès', lastname: 'Roux', phone: '+33600000000' } }),
    );
    await shipSupplierLine(api.runtime.salesDeps, { serviceOrderId: `${imported.incrementId}_${imported.sofa}`, supplier: 'supplier-a' }, systemContext());
    await post('/api/customers/erase', { email: 'effacee@example.org' });
    const before = smtp.received.length;

    const run = await runCustomerMailsOnce(api.runtime);

    expect(run).toMatchObject({ status: 'completed', sent: [], failed: [], skipped: [expect.stringMatching(/^customermail-line_shipped-/)] });
    expect(smtp.received.length).toBe(before);
    expect(smtp.received.flatMap((mail) => mail.envelope.to)).not.toContain('effacee@example.org');
    const stream = run.status === 'completed' ? run.skipped[0]! : '';
    expect(await mailEvents(stream)).toEqual([
      {
        type: 'CustomerMailSkipped',
        data: { kind: 'line_shipped', sourceEventId: stream.slice('customermail-line_shipped-'.length), reason: 'customer_erased', skippedAt: clock.iso() },
      },
    ]);
    expect(customerMailStreamName('line_shipped', stream.slice('customermail-line_shipped-'.length))).toBe(stream);
  });
  it('when a SAV appointment is tomorrow, the reminder job mails it once, and none for a SAV cancelled or moved away', async () => {
    const imported = await importOrder(api, order({ increment_id: '100004800' }));
    const open = async (date: string, time: string) =>
      (
        await post('/api/sale-sav/create-for-sale-product', {
          saleProductId: imported.sofa,
          data: { complaint: 'Le tiroir ne ferme plus.', complaint_name: 'Produit défectueux', sav_type: 'repair', rdv_date: date, rdv_time: time },
        })
      ).sav_id as number;
    // The clock stands on Monday 5 October: tomorrow is Tuesday 6 October.
    const reminded = await open('2026-10-06', '16:00');
    const cancelled = await open('2026-10-06', '14:00');
    await post(`/api/sale-sav/${cancelled}/cancel`, { reason: 'Client injoignable' });
    const movedAway = await open('2026-10-06', '11:00');
    await post(`/api/sale-sav/${movedAway}/appointment`, { date: '2026-10-09', time: '11:00' });
    const before = smtp.received.length;

    const first = await runSavAppointmentRemindersOnce(api.runtime);
    const second = await runSavAppointmentRemindersOnce(api.runtime);

    expect(first).toMatchObject({ status: 'completed', sent: [expect.stringMatching(/^customermail-sav_appointment_reminder-/)], failed: [], skipped: [] });
    expect(second).toEqual({ status: 'completed', sent: [], failed: [], skipped: [] });
    const mails = received(before);
    expect(mails.map((mail) => mail.header('subject'))).toEqual([`Rappel : votre rendez-vous SAV n° ${reminded} demain`]);
    expect(plainText(mails[0]!).split('\n')).toEqual(expect.arrayContaining(['Date : mardi 6 octobre 2026', 'Créneau : de 16h00 à 18h00']));
    const calendar = Object.values(ical.sync.parseICS(mimePart(mails[0]!.raw, 'text/calendar') ?? '')).filter((component) => component?.type === 'VEVENT');
    expect((calendar[0] as ical.VEvent).start.toISOString()).toBe('2026-10-06T14:00:00.000Z');
  });
  it('when CUSTOMER_MAIL_KINDS leaves a kind out, its steps are not mailed and nothing is recorded for them; an unknown kind is refused at start', async () => {
    await runCustomerMailsOnce(api.runtime); // the earlier steps, settled first
    const imported = await importOrder(api, order({ increment_id: '100004900' }));
    await shipSupplierLine(api.runtime.salesDeps, { serviceOrderId: `${imported.incrementId}_${imported.sofa}`, supplier: 'supplier-a' }, systemContext());
    const before = smtp.received.length;
    const shippedMails = async () => (await api.runtime.eventStore.readAll({ filter: { streamPrefixes: ['customermail-line_shipped-'] } })).length;
    const recordedBefore = await shippedMails();
    const onlySavOpened = loadConfig({ DATA_DIR: api.dataDir, CUSTOMER_MAIL_KINDS: 'sav_opened, sav_closed' }).customerMailKinds;

    const run = await runCustomerMailsOnce({ ...api.runtime, config: { ...api.runtime.config, customerMailKinds: onlySavOpened } });

    expect(onlySavOpened).toEqual(['sav_opened', 'sav_closed']);
    expect(run).toEqual({ status: 'completed', sent: [], failed: [], skipped: [], deferred: [] });
    expect(smtp.received.length).toBe(before);
    expect(await shippedMails()).toBe(recordedBefore);
    expect(loadConfig({ DATA_DIR: api.dataDir, CUSTOMER_MAIL_KINDS: 'none' }).customerMailKinds).toEqual([]);
    expect(loadConfig({ DATA_DIR: api.dataDir }).customerMailKinds).toContain('refund_paid');
    expect(() => loadConfig({ DATA_DIR: api.dataDir, CUSTOMER_MAIL_KINDS: 'line_shipped,newsletter' })).toThrow(ConfigError);
  });
});
