import { HttpError } from '../../http/http-error.ts';
import { platformDocumentsAnswer, platformDocumentsQuery, platformDocumentView } from '../core/e-invoicing/schemas.ts';
import { coreBase, coreCommon, failure } from './core-failures.ts';
import type { RouteDoc } from './document.ts';

/** What is handed to the approved platform (core/e-invoicing/routes.ts). */

export const coreEInvoicingComponents = { CorePlatformDocument: platformDocumentView };

export const coreEInvoicingRouteDocs = (): RouteDoc[] => [
  {
    ...coreBase,
    tags: ['core-e-invoicing'],
    method: 'get',
    path: '/api/platform-documents',
    operationId: 'listPlatformDocuments',
    summary: 'The e-invoices and days of e-reporting owed to the approved platform, and how far each is',
    description:
      "A business customer's invoice or credit note is an e-invoice (its Factur-X PDF, under its number); a day of consumer sales is an e-reporting (ER-<date>, in France: the sales recorded that day, whether or not anyone asked for their invoices, less the lines cancelled that day; sent once the day is over by 10 minutes). Each shows its transmission (pending, retrying with its last error and next attempt, sent) and the last lifecycle status the platform gave it. `platform.configured` is false when PLATFORM_URL is unset: then nothing is sent.",
    query: platformDocumentsQuery,
    responses: {
      200: {
        description: 'Latest first.',
        body: platformDocumentsAnswer,
        example: {
          platform: { configured: true },
          documents: [
            {
              id: 'FA-2026-12',
              kind: 'e-invoice',
              date: '2026-10-05',
              documents: ['FA-2026-12'],
              sales: null,
              cancelled_lines: null,
              recorded_after_sending: null,
              transmission: {
                status: 'sent',
                attempts: 2,
                last_error: 'not sent: ECONNREFUSED',
                next_attempt_at: null,
                sent_at: '2026-10-05T08:01:02.000Z',
                platform_reference: 'pa-81723',
              },
              platform_status: { status: 'deposited', reason: null, received_at: '2026-10-05T08:01:02.000Z' },
            },
            {
              id: 'ER-2026-10-04',
              kind: 'e-reporting',
              date: '2026-10-04',
              documents: [],
              sales: 143,
              cancelled_lines: 2,
              recorded_after_sending: 0,
              transmission: {
                status: 'sent',
                attempts: 1,
                last_error: null,
                next_attempt_at: null,
                sent_at: '2026-10-04T22:10:05.000Z',
                platform_reference: 'pa-81690',
              },
              platform_status: { status: 'deposited', reason: null, received_at: '2026-10-04T22:10:05.000Z' },
            },
          ],
        },
      },
      400: failure(
        'A query parameter is unknown or invalid.',
        new HttpError(400, 'invalid_request', 'kind: Invalid option: expected one of "e-invoice"|"e-reporting"'),
      ),
      ...coreCommon,
    },
  },
];
