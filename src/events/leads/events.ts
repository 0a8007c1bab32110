import { z } from 'zod';
import { defineEvent, type EventsOf } from '../schema/define-event.ts';
import { instant, personalEmail } from '../schema/common-schemas.ts';

/** Events of a contact lead's stream, `lead-<leadId>`, including its notification outbox. */

export const ContactLeadCaptured = defineEvent(
  'ContactLeadCaptured',
  z.object({
    leadId: z.string().uuid(),
    name: z.string().min(1).max(200),
    email: personalEmail(z.string().email().max(254)),
    phone: z.string().max(32).nullable(),
    projectName: z.string().max(500).nullable(),
    capturedAt: instant,
  }),
  { personal: { fields: ['name', 'email', 'phone', 'projectName'], subject: (data) => ({ email: String(data.email) }) } },
);

export const LeadNotificationSent = defineEvent(
  'LeadNotificationSent',
  z.object({
    leadId: z.string().uuid(),
    attempt: z.number().int().min(1),
    transport: z.enum(['smtp', 'file']),
    messageId: z.string().max(998),
    sentAt: instant,
  }),
);

export const LeadNotificationFailed = defineEvent(
  'LeadNotificationFailed',
  z.object({
    leadId: z.string().uuid(),
    attempt: z.number().int().min(1),
    error: z.string().max(2000),
    nextAttemptAt: instant,
    failedAt: instant,
  }),
);

export const leadEventDefinitions = [ContactLeadCaptured, LeadNotificationSent, LeadNotificationFailed] as const;
export type LeadEvent = EventsOf<typeof leadEventDefinitions>;

export const leadStreamName = (leadId: string): string => `lead-${leadId}`;
