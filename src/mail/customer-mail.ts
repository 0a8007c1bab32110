import ical from 'ical-generator';
import type { SendMailOptions } from 'nodemailer';
import type { Seller } from '../config/seller-settings.ts';
import type { CustomerMailKind } from '../events/customer-mails/events.ts';
import { offsetMinutesIn } from '../time/zoned-timestamp.ts';

/**
 * The mails a customer receives at each step of an order or a SAV: in French, an HTML part and its
 * plain-text twin, signed with the seller's identity (SELLER_*). No remote image, no tracking pixel,
 * no link but the carrier's tracking page. An appointment's mail carries it as an iCalendar file.
 */

/** An appointment's window: a SAV slot is two hours from its start time (the default slots are two hours apart). */
export const appointmentWindowMinutes = 120;

type Customer = { email: string; firstname: string };

export type CustomerMailContent =
  | { kind: 'line_shipped'; incrementId: string; productName: string; carrier: string | null; trackingNumber: string | null; trackingUrl: string | null }
  | { kind: 'sav_opened'; savId: number; incrementId: string; productNames: string[] }
  | { kind: 'sav_appointment_booked' | 'sav_appointment_moved' | 'sav_appointment_reminder'; savId: number; date: string; time: string }
  | { kind: 'sav_resolved' | 'sav_closed'; savId: number }
  | { kind: 'refund_paid'; incrementId: string; amount: number; currency: string };

export type CustomerMail = { customer: Customer; content: CustomerMailContent; sourceEventId: string };

export type CustomerMailSettings = { from: string; seller: Seller; timezone: string };

const senderDomain = (from: string): string => /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';

/** One Message-ID per mail owed, the same on every attempt: a duplicate after a crash is recognisable. */
export const customerMailMessageId = (kind: CustomerMailKind, sourceEventId: string, from: string): string =>
  `<customermail-${kind}-${sourceEventId}@${senderDomain(from)}>`;

/** The instant of a wall-clock date and time in a zone (the offset read at that instant, then checked once). */
export const zonedInstant = (date: string, time: string, timezone: string): Date => {
  const asUtc = Date.parse(`${date}T${time}:00Z`);
  const offsetAt = offsetMinutesIn(timezone);
  const first = asUtc - offsetAt(asUtc) * 60_000;
  return new Date(asUtc - offsetAt(first) * 60_000);
};

const longDate = (date: string): string => new Intl.DateTimeFormat('fr-FR', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));

const endTime = (time: string): string => {
  const [hours, minutes] = time.split(':').map(Number);
  const total = (hours ?? 0) * 60 + (minutes ?? 0) + appointmentWindowMinutes;
  return `${String(Math.floor(total / 60) % 24).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
};

const euros = (amount: number, currency: string): string => new Intl.NumberFormat('fr-FR', { style: 'currency', currency }).format(amount);

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ?? character);

/** A paragraph is a line of text; a link is kept as such in the HTML part and written out in the text part. */
type Paragraph = string | { text: string; href: string };

type Composed = { subject: string; paragraphs: Paragraph[]; calendar?: { date: string; time: string; savId: number } };

const appointmentLines = (date: string, time: string): string[] => [
  `Date : ${longDate(date)}`,
  `Créneau : de ${time.replace(':', 'h')} à ${endTime(time).replace(':', 'h')}`,
];

const compose = (content: CustomerMailContent, seller: Seller): Composed => {
  switch (content.kind) {
    case 'line_shipped': {
      const tracking: Paragraph[] =
        content.trackingNumber === null ? [] : [`Transporteur : ${content.carrier ?? 'non précisé'}`, `Numéro de suivi : ${content.trackingNumber}`];
      if (content.trackingUrl !== null) tracking.push({ text: 'Suivre le colis sur le site du transporteur', href: content.trackingUrl });
      return {
        subject: `Votre commande ${content.incrementId} a été expédiée`,
        paragraphs: [`Votre article « ${content.productName} » de la commande ${content.incrementId} a été expédié.`, ...tracking],
      };
    }
    case 'sav_opened':
      return {
        subject: `Votre demande SAV n° ${content.savId} est enregistrée`,
        paragraphs: [
          `Nous avons bien reçu votre demande de service après-vente n° ${content.savId} pour la commande ${content.incrementId} (${content.productNames.join(', ')}).`,
          'Notre équipe l’examine et reviendra vers vous pour la suite : un rendez-vous si une intervention est nécessaire, ou la solution retenue.',
          `Rappelez ce numéro (${content.savId}) dans vos échanges avec nous.`,
        ],
      };
    case 'sav_appointment_booked':
    case 'sav_appointment_moved':
    case 'sav_appointment_reminder': {
      const { savId, date, time } = content;
      const intro = {
        sav_appointment_booked: `Votre rendez-vous pour la demande SAV n° ${savId} est confirmé.`,
        sav_appointment_moved: `Votre rendez-vous pour la demande SAV n° ${savId} a été déplacé. Voici le nouveau créneau.`,
        sav_appointment_reminder: `Nous vous rappelons votre rendez-vous de demain pour la demande SAV n° ${savId}.`,
      }[content.kind];
      const subject = {
        sav_appointment_booked: `Rendez-vous SAV n° ${savId} confirmé`,
        sav_appointment_moved: `Rendez-vous SAV n° ${savId} déplacé`,
        sav_appointment_reminder: `Rappel : votre rendez-vous SAV n° ${savId} demain`,
      }[content.kind];
      return {
        subject,
        paragraphs: [intro, ...appointmentLines(date, time), 'Le rendez-vous est joint à ce message pour votre agenda.'],
        calendar: { date, time, savId },
      };
    }
    case 'sav_resolved':
      return {
        subject: `Votre demande SAV n° ${content.savId} est résolue`,
        paragraphs: [
          `Votre demande de service après-vente n° ${content.savId} est résolue.`,
          `Si le problème persiste, répondez à ce message : ${seller.name} rouvrira la demande.`,
        ],
      };
    case 'sav_closed':
      return {
        subject: `Votre demande SAV n° ${content.savId} est clôturée`,
        paragraphs: [`Votre demande de service après-vente n° ${content.savId} est clôturée.`, 'Pour toute question, répondez à ce message.'],
      };
    case 'refund_paid':
      return {
        subject: `Remboursement de votre commande ${content.incrementId}`,
        paragraphs: [
          `Un remboursement de ${euros(content.amount, content.currency)} pour votre commande ${content.incrementId} a été effectué.`,
          'Il apparaîtra sur votre moyen de paiement sous quelques jours ouvrés.',
        ],
      };
  }
};

const signature = (seller: Seller): string[] => [
  `${seller.name}, ${seller.legalForm}`,
  [...seller.street, `${seller.postcode} ${seller.city}`].join(', '),
  `SIRET ${seller.siret}`,
];

const calendarFile = (calendar: NonNullable<Composed['calendar']>, seller: Seller, settings: CustomerMailSettings, sourceEventId: string): string => {
  const start = zonedInstant(calendar.date, calendar.time, settings.timezone);
  const file = ical({ name: seller.name, prodId: { company: seller.name, product: 'sav', language: 'FR' } });
  file.createEvent({
    id: `sav-${calendar.savId}-${sourceEventId}@${senderDomain(settings.from)}`,
    start,
    end: new Date(start.getTime() + appointmentWindowMinutes * 60_000),
    summary: `Rendez-vous SAV n° ${calendar.savId} (${seller.name})`,
    description: `Intervention pour la demande de service après-vente n° ${calendar.savId}.`,
    organizer: { name: seller.name, email: settings.from.replace(/^.*<([^>]+)>\s*$/, '$1') },
  });
  return file.toString();
};

export const customerMail = (mail: CustomerMail, settings: CustomerMailSettings): SendMailOptions => {
  const { seller } = settings;
  const composed = compose(mail.content, seller);
  const greeting = `Bonjour ${mail.customer.firstname},`;
  const closing = ['Cordialement,', `Le service client de ${seller.name}`];
  const text = [
    greeting,
    '',
    ...composed.paragraphs.map((paragraph) => (typeof paragraph === 'string' ? paragraph : `${paragraph.text} : ${paragraph.href}`)),
    '',
    ...closing,
    '',
    '--',
    ...signature(seller),
    '',
  ].join('\n');
  const html = [
    '<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"></head><body>',
    `<p>${escapeHtml(greeting)}</p>`,
    ...composed.paragraphs.map((paragraph) =>
      typeof paragraph === 'string' ? `<p>${escapeHtml(paragraph)}</p>` : `<p><a href="${escapeHtml(paragraph.href)}">${escapeHtml(paragraph.text)}</a></p>`,
    ),
    `<p>${closing.map(escapeHtml).join('<br>')}</p>`,
    `<hr><p style="font-size:small">${signature(seller).map(escapeHtml).join('<br>')}</p>`,
    '</body></html>',
  ].join('\n');
  const kind = mail.content.kind;
  return {
    from: { name: seller.name, address: settings.from.replace(/^.*<([^>]+)>\s*$/, '$1') },
    to: { name: mail.customer.firstname, address: mail.customer.email },
    subject: composed.subject,
    messageId: customerMailMessageId(kind, mail.sourceEventId, settings.from),
    headers: { 'X-Customer-Mail': kind },
    text,
    html,
    attachments:
      composed.calendar === undefined
        ? []
        : [
            {
              filename: 'rendez-vous.ics',
              content: calendarFile(composed.calendar, seller, settings, mail.sourceEventId),
              contentType: 'text/calendar; charset=utf-8',
            },
          ],
  };
};
