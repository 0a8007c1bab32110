import type { SendMailOptions } from 'nodemailer';

/** The internal team's notification of a contact lead: French first, then English, plain text only. */

export type LeadMailDetails = {
  leadId: string;
  name: string;
  email: string;
  phone: string | null;
  projectName: string | null;
  capturedAt: string;
};

export type LeadMailSettings = {
  from: string;
  to: string;
  /** The IANA zone the team reads dates in. */
  timezone: string;
};

/** The domain of the sender's address, so that our Message-IDs are ours; `localhost` when it has none. */
const senderDomain = (from: string): string => /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';

/**
 * One Message-ID per lead, the same on every attempt: if a crash between sending and recording makes
 * the job send again, the duplicate carries the same ID, which mail servers and clients recognise.
 */
export const leadMessageId = (leadId: string, from: string): string => `<lead-${leadId}@${senderDomain(from)}>`;

const frenchDate = (instant: string, timezone: string): string =>
  new Intl.DateTimeFormat('fr-FR', { dateStyle: 'full', timeStyle: 'short', timeZone: timezone }).format(new Date(instant));

export const leadMail = (lead: LeadMailDetails, settings: LeadMailSettings): SendMailOptions => {
  const notGiven = { fr: 'non renseigné', en: 'not given' };
  const text = [
    'Bonjour,',
    '',
    'Un nouveau contact a été reçu par le formulaire de contact.',
    '',
    `Nom : ${lead.name}`,
    `E-mail : ${lead.email}`,
    `Téléphone : ${lead.phone ?? notGiven.fr}`,
    `Projet : ${lead.projectName ?? notGiven.fr}`,
    `Reçu le : ${frenchDate(lead.capturedAt, settings.timezone)} (${settings.timezone})`,
    `Référence : ${lead.leadId}`,
    '',
    'Répondez à ce message pour écrire directement au contact.',
    '',
    '-----',
    '',
    'Hello,',
    '',
    'A new lead came in through the contact form.',
    '',
    `Name: ${lead.name}`,
    `Email: ${lead.email}`,
    `Phone: ${lead.phone ?? notGiven.en}`,
    `Project: ${lead.projectName ?? notGiven.en}`,
    `Received: ${lead.capturedAt}`,
    `Reference: ${lead.leadId}`,
    '',
    'Reply to this message to write to the lead directly.',
    '',
  ].join('\n');
  return {
    from: settings.from,
    to: settings.to,
    // An address object: nodemailer quotes and encodes the name, whatever the visitor typed.
    replyTo: { name: lead.name, address: lead.email },
    subject: `Nouveau contact / New lead : ${lead.name}`,
    messageId: leadMessageId(lead.leadId, settings.from),
    headers: { 'X-Lead-Id': lead.leadId },
    text,
  };
};
