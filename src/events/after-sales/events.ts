import { z } from 'zod';
import { defineEvent, type EventsOf } from '../schema/define-event.ts';
import { instant, localDate, localTime, personalEmail, positiveId } from '../schema/common-schemas.ts';
import { saleStreamName } from '../sales/events.ts';

/** Events of a SAV (after-sales request) stream, `sav-<savId>`. */

export const savChannel = z.enum(['core', 'chatbot']);

export const SavCreated = defineEvent(
  'SavCreated',
  z.object({
    savId: positiveId,
    saleId: positiveId,
    incrementId: z.string(),
    saleProductIds: z.array(positiveId).min(1),
    /** Snapshot of the covered products, so that SAV read models need no join with the sale. */
    products: z.array(z.object({ saleProductId: positiveId, sku: z.string(), name: z.string() })).min(1),
    complaint: z.string().min(1).max(10000),
    /** The complaint category. */
    complaintName: z.string().min(1).max(255),
    savType: z.string().min(1).max(64),
    channel: savChannel,
    customerEmail: personalEmail().nullable(),
    createdAt: instant,
  }),
  {
    // What the customer wrote and how to reach them; a SAV belongs to its sale's customer (whatever
    // e-mail the request gave), sealed with the key of the sale's stream.
    personal: { fields: ['complaint', 'customerEmail'], subject: (data) => ({ stream: saleStreamName(String(data.incrementId)) }) },
  },
);

export const SavAppointmentScheduled = defineEvent(
  'SavAppointmentScheduled',
  z.object({
    savId: positiveId,
    date: localDate,
    time: localTime,
    phone: z.string().max(32).nullable(),
    comment: z.string().max(2000).nullable(),
    previous: z.object({ date: localDate, time: localTime }).nullable(),
    scheduledAt: instant,
  }),
  // The key of the SAV's stream: its sale's customer's.
  { personal: { fields: ['phone', 'comment'] } },
);

export const savFileKind = z.enum(['image', 'video', 'document']);

export const SavFileAttached = defineEvent(
  'SavFileAttached',
  z.object({
    savId: positiveId,
    fileId: z.string().uuid(),
    kind: savFileKind,
    /** The file category given by the client (`prefix` of the upload API). */
    category: z.string().min(1).max(64),
    /** Where it came from: a URL given at creation or the URL fetched by an upload. */
    sourceUrl: z.string().max(2048).nullable(),
    /** Where the service stored it, under its file storage; null for a link kept as a URL. */
    storedPath: z.string().nullable(),
    fileName: z.string().min(1).max(255),
    contentType: z.string().max(255).nullable(),
    size: z.number().int().nonnegative().nullable(),
    attachedAt: instant,
  }),
);

/**
 * The life of a SAV: `in_progress` -> `resolved` -> `closed`; a resolved or closed SAV can be reopened
 * (`in_progress` again); a SAV in progress can be cancelled, for good. Who did it is the event's actor.
 */
export const savStatusValues = z.enum(['in_progress', 'resolved', 'closed', 'cancelled']);

/** A place in the SAV planning, given back when the SAV ends (closed or cancelled) before its day. */
const releasedSlot = z.object({ date: localDate, time: localTime }).nullable();
/** Texts staff write on a status change: what was done, why it was cancelled or reopened. */
const statusNote = z.string().min(1).max(2000);

export const SavResolved = defineEvent('SavResolved', z.object({ savId: positiveId, resolution: statusNote, resolvedAt: instant }));

export const SavClosed = defineEvent('SavClosed', z.object({ savId: positiveId, releasedAppointment: releasedSlot, closedAt: instant }));

export const SavReopened = defineEvent(
  'SavReopened',
  z.object({ savId: positiveId, reason: statusNote, reopenedFrom: z.enum(['resolved', 'closed']), reopenedAt: instant }),
);

export const SavCancelled = defineEvent(
  'SavCancelled',
  z.object({ savId: positiveId, reason: statusNote, releasedAppointment: releasedSlot, cancelledAt: instant }),
);

/** Why a file given by URL was not fetched (see src/files/remote-file-error.ts). */
export const savFileFetchFailure = z.enum(['url_refused', 'unresolvable', 'too_large', 'unsupported_type', 'remote_failed', 'timeout']);

/** A file attached as a link (storedPath null) was fetched and stored by the fetch job. */
export const SavFileFetched = defineEvent(
  'SavFileFetched',
  z.object({
    savId: positiveId,
    fileId: z.string().uuid(),
    /** The file's display name, as attached: the log needs no lookup. */
    fileName: z.string().min(1).max(255),
    attempt: z.number().int().min(1),
    /** What the content is, whatever the list the URL was given in. */
    kind: savFileKind,
    storedPath: z.string().min(1),
    contentType: z.string().max(255),
    size: z.number().int().nonnegative(),
    fetchedAt: instant,
  }),
);

export const SavFileFetchFailed = defineEvent(
  'SavFileFetchFailed',
  z.object({
    savId: positiveId,
    fileId: z.string().uuid(),
    fileName: z.string().min(1).max(255),
    attempt: z.number().int().min(1),
    reason: savFileFetchFailure,
    error: z.string().max(2000),
    /** When the job tries again; null when it has given up (a failure no retry mends, or the last attempt). */
    nextAttemptAt: instant.nullable(),
    failedAt: instant,
  }),
);

export const savEventDefinitions = [
  SavCreated,
  SavAppointmentScheduled,
  SavFileAttached,
  SavFileFetched,
  SavFileFetchFailed,
  SavResolved,
  SavClosed,
  SavReopened,
  SavCancelled,
] as const;
export type SavEvent = EventsOf<typeof savEventDefinitions>;

export const savStreamName = (savId: number): string => `sav-${savId}`;
