import { z } from 'zod';
import { defineEvent, type EventsOf } from '../schema/define-event.ts';
import { instant } from '../schema/common-schemas.ts';

/**
 * Events of a customer mail's stream, `customermail-<kind>-<sourceEventId>`: one stream per mail the
 * log owes a customer (the event it tells about, and what kind of mail). They record the outcome of
 * each attempt, never the mail's address nor its body: the body is rebuilt from the source events
 * whenever it is sent, and an erased customer's data no longer opens.
 */

export const customerMailKind = z.enum([
  'line_shipped',
  'sav_opened',
  'sav_appointment_booked',
  'sav_appointment_moved',
  'sav_appointment_reminder',
  'sav_resolved',
  'sav_closed',
  'refund_paid',
]);
export type CustomerMailKind = z.infer<typeof customerMailKind>;
export const customerMailKinds: readonly CustomerMailKind[] = customerMailKind.options;

const mailRef = { kind: customerMailKind, sourceEventId: z.string().uuid(), attempt: z.number().int().min(1) };

export const CustomerMailSent = defineEvent(
  'CustomerMailSent',
  z.object({ ...mailRef, transport: z.enum(['smtp', 'file']), messageId: z.string().max(998), sentAt: instant }),
);

export const CustomerMailFailed = defineEvent(
  'CustomerMailFailed',
  z.object({
    ...mailRef,
    error: z.string().max(2000),
    /** When the job tries again; null when it has given up (the last attempt). */
    nextAttemptAt: instant.nullable(),
    failedAt: instant,
  }),
);

/** Why a mail owed is not sent: the customer was erased, or the log names no address to write to. */
export const customerMailSkipReason = z.enum(['customer_erased', 'no_address']);

export const CustomerMailSkipped = defineEvent(
  'CustomerMailSkipped',
  z.object({ kind: customerMailKind, sourceEventId: z.string().uuid(), reason: customerMailSkipReason, skippedAt: instant }),
);

export const customerMailEventDefinitions = [CustomerMailSent, CustomerMailFailed, CustomerMailSkipped] as const;
export type CustomerMailEvent = EventsOf<typeof customerMailEventDefinitions>;

export const customerMailStreamName = (kind: CustomerMailKind, sourceEventId: string): string => `customermail-${kind}-${sourceEventId}`;
