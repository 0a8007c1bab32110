import { z } from 'zod';
import { platformStatus, transmissionKind } from '../../../events/e-invoicing/events.ts';
import type { PlatformDocument } from '../../../projections/e-invoicing/platform-document.ts';
import { queryParameters } from '../../query-parameters.ts';
import { unknownParameters } from '../core-query.ts';

/** GET /api/platform-documents: what is owed to the approved platform, and how far each document is. */

export const platformDocumentsQuery = queryParameters(
  {
    kind: transmissionKind.optional().describe('Only e-invoices (business customers) or only e-reporting (days of consumer sales).'),
    limit: z.coerce.number().int().min(1).max(200).optional().describe('Documents answered, latest first (default 50).'),
  },
  unknownParameters,
);

export const platformDocumentView = z.object({
  id: z.string().describe('The identifier the platform is given: the document number (FA-…, AV-…) or ER-<date>'),
  kind: transmissionKind,
  date: z.string().describe('The issue date of an e-invoice, the day an e-reporting reports (local)'),
  documents: z.array(z.string()).describe('The invoice or credit note an e-invoice carries; empty for an e-reporting, which counts sales'),
  sales: z
    .number()
    .int()
    .nullable()
    .describe('E-reporting: the consumer sales recorded that day, counted whether or not an invoice was asked for; null for an e-invoice'),
  cancelled_lines: z
    .number()
    .int()
    .nullable()
    .describe('E-reporting: the lines of consumer sales cancelled that day, their amounts taken away; null for an e-invoice'),
  recorded_after_sending: z
    .number()
    .int()
    .nullable()
    .describe(
      'E-reporting: sales and cancellations of that day counted after it was sent (recorded late): not in what the platform has; normally 0, null for an e-invoice',
    ),
  transmission: z.object({
    status: z.enum(['pending', 'retrying', 'sent']),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    next_attempt_at: z.string().nullable(),
    sent_at: z.string().nullable(),
    platform_reference: z.string().nullable(),
  }),
  platform_status: z.object({ status: platformStatus, reason: z.string().nullable(), received_at: z.string() }).nullable(),
});

export const platformDocumentsAnswer = z.object({
  platform: z.object({ configured: z.boolean().describe('False when PLATFORM_URL is unset: nothing is sent') }),
  documents: z.array(platformDocumentView),
});

export const platformDocumentOf = (document: PlatformDocument): z.infer<typeof platformDocumentView> => ({
  id: document._id,
  kind: document.kind,
  date: document.date,
  documents: document.documents,
  sales: document.kind === 'e-reporting' ? document.sales : null,
  cancelled_lines: document.kind === 'e-reporting' ? document.cancelledLines : null,
  recorded_after_sending: document.kind === 'e-reporting' ? document.recordedAfterSending : null,
  transmission: {
    status: document.transmission.status,
    attempts: document.transmission.attempts,
    last_error: document.transmission.lastError,
    next_attempt_at: document.transmission.nextAttemptAt,
    sent_at: document.transmission.sentAt,
    platform_reference: document.transmission.platformReference,
  },
  platform_status: document.platformStatus && {
    status: document.platformStatus.status,
    reason: document.platformStatus.reason,
    received_at: document.platformStatus.receivedAt,
  },
});
