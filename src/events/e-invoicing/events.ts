import { z } from 'zod';
import { defineEvent, type EventsOf } from '../schema/define-event.ts';
import { instant, localDate } from '../schema/common-schemas.ts';

/**
 * What the service hands to the approved platform (plateforme agréée, PA) the seller chose, one stream
 * per document, `platformtransmission-<documentId>`: each attempt at sending it (sent, or failed with
 * when it is tried again) and each status the platform gave it since. A document is a business
 * customer's invoice or credit note (`e-invoice`, identified by its number) or a day's consumer sales
 * (`e-reporting`, identified as `ER-<date>`): its identifier is the one the platform is given at
 * every attempt, so that a document sent again after a crash is the same document to the platform.
 */

export const transmissionKind = z.enum(['e-invoice', 'e-reporting']);
export type TransmissionKind = z.infer<typeof transmissionKind>;

/** `FA-2026-12`, `AV-2026-3`, `ER-2026-10-05`. */
export const transmissionDocumentId = z.string().regex(/^(?:(?:FA|AV)-\d{4}-[1-9]\d*|ER-\d{4}-\d{2}-\d{2})$/);

/**
 * The statuses of the lifecycle the reform's external specifications define (dossier de spécifications
 * externes, cycle de vie, codes 200 to 213), in English; `deposited` to `made_available` are the
 * platforms' own, the others the buyer's and the payment's.
 */
export const platformStatus = z.enum([
  'deposited',
  'issued',
  'received',
  'made_available',
  'taken_over',
  'approved',
  'partially_approved',
  'disputed',
  'suspended',
  'completed',
  'refused',
  'payment_sent',
  'cashed',
  'rejected',
]);
export type PlatformStatus = z.infer<typeof platformStatus>;

/** After these the document's lifecycle, as far as its seller follows it on the platform, is over: no more polling. */
export const finalPlatformStatuses: readonly PlatformStatus[] = ['refused', 'rejected', 'cashed', 'completed'];

const documentRef = {
  documentId: transmissionDocumentId,
  kind: transmissionKind,
  /** The local date the document was issued (an e-invoice) or reports (e-reporting). */
  date: localDate,
};

export const PlatformTransmissionSent = defineEvent(
  'PlatformTransmissionSent',
  z.object({
    ...documentRef,
    attempt: z.number().int().positive(),
    /** The platform's HTTP status. */
    status: z.number().int(),
    /** The platform's own reference of the document, when it gave one. */
    platformReference: z.string().max(200).nullable(),
    sentAt: instant,
  }),
);

export const PlatformTransmissionFailed = defineEvent(
  'PlatformTransmissionFailed',
  z.object({
    ...documentRef,
    attempt: z.number().int().positive(),
    /** The platform's HTTP status; null when it did not answer. */
    status: z.number().int().nullable(),
    error: z.string().max(2000),
    /** When it is tried again. */
    nextAttemptAt: instant,
    failedAt: instant,
  }),
);

export const PlatformStatusReceived = defineEvent(
  'PlatformStatusReceived',
  z.object({
    ...documentRef,
    status: platformStatus,
    /** The platform's reason, for a refusal or a rejection. */
    reason: z.string().max(2000).nullable(),
    receivedAt: instant,
  }),
);

export const eInvoicingEventDefinitions = [PlatformTransmissionSent, PlatformTransmissionFailed, PlatformStatusReceived] as const;
export type EInvoicingEvent = EventsOf<typeof eInvoicingEventDefinitions>;

export const platformTransmissionStreamName = (documentId: string): string => `platformtransmission-${documentId}`;

/** The identifier of a day's e-reporting. */
export const eReportingDocumentId = (date: string): string => `ER-${date}`;
