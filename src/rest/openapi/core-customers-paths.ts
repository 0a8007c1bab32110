import { customerNotFound, logNotMigrated } from '../core/customers/erase-customer.ts';
import { customerErased, eraseCustomerBody } from '../core/customers/schemas.ts';
import { HttpError } from '../../http/http-error.ts';
import { coreBase, coreBodyFailures, coreCommon, failure } from './core-failures.ts';
import type { RouteDoc } from './document.ts';

/** The customers' erasure (core/customers/routes.ts). */

export const coreCustomersComponents = { CoreCustomerErased: customerErased };

export const coreCustomersRouteDocs = (): RouteDoc[] => [
  {
    ...coreBase,
    tags: ['core-customers'],
    method: 'post',
    path: '/api/customers/erase',
    operationId: 'eraseCustomer',
    summary: "Erases a customer's personal data (GDPR article 17)",
    description:
      "Deletes the key their names, e-mail, phones and addresses were encrypted with in the event log: every read model, answer, replay and document made afterwards shows `[erased]` in their place; amounts, dates and products stay. Their sales, SAVs and leads are named by the log's `CustomerErased` event; labels and mail files made from their data are deleted. Asked again, it answers `already_erased`. The e-mail goes in the body, never in the path.",
    body: eraseCustomerBody,
    bodyExample: { email: 'manon.schmitt84@example.org' },
    responses: {
      200: {
        description: 'Erased now, or earlier (`already_erased`).',
        body: customerErased,
        example: {
          success: true,
          status: 'erased',
          erased_at: '2026-11-02T09:14:03.120Z',
          sales: 2,
          savs: 1,
          leads: 0,
          files_deleted: 3,
          read_models_scrubbed: true,
          message: 'The customer key was deleted: names, e-mail, phones and addresses now read as [erased] everywhere',
        },
      },
      400: failure(
        'The e-mail is missing or invalid, or a query parameter was given.',
        new HttpError(400, 'invalid_request', 'email: must be a valid e-mail address'),
      ),
      404: failure('No order, SAV or lead names this e-mail address.', customerNotFound()),
      409: failure('Events written before encryption are still to be migrated (`cli events encrypt-personal-data`).', logNotMigrated()),
      ...coreCommon,
      ...coreBodyFailures(),
    },
  },
];
