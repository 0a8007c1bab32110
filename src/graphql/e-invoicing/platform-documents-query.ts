import { platformStatus } from '../../events/e-invoicing/events.ts';
import type { PlatformDocument } from '../../projections/e-invoicing/platform-document.ts';
import { platformDocuments } from '../../projections/e-invoicing/queries.ts';
import { builder } from '../builder.ts';
import { badUserInput } from '../errors.ts';

/**
 * What is handed to the approved platform (the `platform_documents` read model), as the core REST API's
 * GET /api/platform-documents lists it: each e-invoice and day of e-reporting, its transmission and
 * the last lifecycle status the platform gave it.
 */

const maxLimit = 200;

const PlatformDocumentKindEnum = builder.enumType('PlatformDocumentKind', {
  values: { E_INVOICE: { value: 'e-invoice' as const }, E_REPORTING: { value: 'e-reporting' as const } },
});

const TransmissionStatusEnum = builder.enumType('PlatformTransmissionStatus', {
  values: { PENDING: { value: 'pending' as const }, RETRYING: { value: 'retrying' as const }, SENT: { value: 'sent' as const } },
});

const PlatformStatusEnum = builder.enumType('PlatformStatus', {
  description: 'The lifecycle statuses of the external specifications (codes 200 to 213), in English.',
  values: Object.fromEntries(platformStatus.options.map((status) => [status.toUpperCase(), { value: status }])) as Record<
    Uppercase<(typeof platformStatus.options)[number]>,
    { value: (typeof platformStatus.options)[number] }
  >,
});

const PlatformDocumentRef = builder.objectRef<PlatformDocument>('PlatformDocument').implement({
  fields: (t) => ({
    id: t.exposeString('_id', { description: 'The identifier the platform is given: the document number (FA-…, AV-…) or ER-<date>.' }),
    kind: t.expose('kind', { type: PlatformDocumentKindEnum }),
    date: t.field({ type: 'LocalDate', description: 'The issue date of an e-invoice, the day an e-reporting reports.', resolve: (document) => document.date }),
    documents: t.exposeStringList('documents', {
      description: 'The invoice or credit note an e-invoice carries; empty for an e-reporting, which counts sales.',
    }),
    sales: t.int({
      nullable: true,
      description: 'E-reporting: the consumer sales recorded that day, counted whether or not an invoice was asked for; null for an e-invoice.',
      resolve: (document) => (document.kind === 'e-reporting' ? document.sales : null),
    }),
    cancelledLines: t.int({
      nullable: true,
      description: 'E-reporting: the lines of consumer sales cancelled that day, their amounts taken away; null for an e-invoice.',
      resolve: (document) => (document.kind === 'e-reporting' ? document.cancelledLines : null),
    }),
    recordedAfterSending: t.int({
      nullable: true,
      description: 'E-reporting: sales and cancellations of that day counted after it was sent (recorded late), not in what the platform has; normally 0.',
      resolve: (document) => (document.kind === 'e-reporting' ? document.recordedAfterSending : null),
    }),
    transmissionStatus: t.field({ type: TransmissionStatusEnum, resolve: (document) => document.transmission.status }),
    attempts: t.int({ resolve: (document) => document.transmission.attempts }),
    lastError: t.string({ nullable: true, resolve: (document) => document.transmission.lastError }),
    nextAttemptAt: t.field({ type: 'DateTime', nullable: true, resolve: (document) => document.transmission.nextAttemptAt }),
    sentAt: t.field({ type: 'DateTime', nullable: true, resolve: (document) => document.transmission.sentAt }),
    platformReference: t.string({ nullable: true, resolve: (document) => document.transmission.platformReference }),
    platformStatus: t.field({ type: PlatformStatusEnum, nullable: true, resolve: (document) => document.platformStatus?.status ?? null }),
    platformStatusReason: t.string({ nullable: true, resolve: (document) => document.platformStatus?.reason ?? null }),
  }),
});

builder.queryField('platformDocuments', (t) =>
  t.field({
    type: [PlatformDocumentRef],
    description: `The e-invoices and days of e-reporting owed to the approved platform, latest first (limit 1 to ${maxLimit}, default 50).`,
    args: { kind: t.arg({ type: PlatformDocumentKindEnum }), limit: t.arg.int() },
    complexity: (args) => ({ field: 1, multiplier: args.limit ?? 50 }),
    resolve: async (_root, { kind, limit }, { runtime }) => {
      const count = limit ?? 50;
      if (!Number.isInteger(count) || count < 1 || count > maxLimit) throw badUserInput('limit', `must be a whole number from 1 to ${maxLimit}`);
      return platformDocuments(runtime.readStore, { kind: kind ?? undefined, limit: count });
    },
  }),
);
