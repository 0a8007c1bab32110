import type { z } from 'zod';
import { refusalError } from '../core/sale-actions/sale-action-errors.ts';
import { actionTokenParams } from '../core/sale-actions/schemas.ts';
import { Refusal } from '../../events/decider.ts';
import { HttpError } from '../../http/http-error.ts';
import { coreBase, coreCommon, failure, requestHeadTooLarge, unknownQueryParameter } from './core-failures.ts';
import { coreAddressChanged, coreDeliveryRdvSaved, coreRdvApplied, coreRdvCheck, coreSaleCancelled } from './core-responses.ts';
import { rdvCheckExample } from './core-examples.ts';
import type { ResponseDoc, RouteDoc } from './document.ts';

/**
 * The sale actions of core/sale-actions/routes.ts: the sealed action token in the path names the
 * sale, the action and its data (minted by `cli action-token`); there is no body. State-changing
 * actions use their token once.
 */

export const coreSaleActionsComponents = { CoreRdvCheck: coreRdvCheck };

const base = { ...coreBase, tags: ['core-sale-actions'], pathParams: actionTokenParams };

const refusal = (code: string, details: Record<string, unknown> = {}) => refusalError(new Refusal(code, code, details));

const tokenResponses = (action: string): Record<number, ResponseDoc> => ({
  400: failure(
    "The token is longer than 4096 characters, the data it carries does not read as its action's (`invalid_action_token`), or a query parameter was given.",
    unknownQueryParameter(),
  ),
  ...coreCommon,
  404: failure(
    `The token is malformed, forged, expired or was issued for another action than ${action} (\`invalid_action_token\`, \`wrong_action_token\`); or its sale does not exist.`,
    new HttpError(404, 'wrong_action_token', `This token was issued for the action "invoice", not "${action}"`),
  ),
  431: requestHeadTooLarge,
});

const action = (kind: string, path: string, operationId: string, summary: string, body: z.ZodType, conflict: string, example: HttpError): RouteDoc => ({
  ...base,
  method: 'post',
  path,
  operationId,
  summary,
  description: `${conflict} A refused action leaves the token usable; a used token answers 409 \`action_token_used\`.`,
  responses: {
    200: { description: 'Done, or already so (`status: unchanged`); the token is used either way.', body },
    ...tokenResponses(kind),
    409: failure('The token was used already, or the sale refuses the action; `error` is the refusal code.', example),
  },
});

export const coreSaleActionsRouteDocs = (): RouteDoc[] => [
  {
    ...base,
    method: 'get',
    path: '/api/sale-rdv-check/:token',
    operationId: 'checkSaleRdv',
    summary: 'Whether the appointment the token carries can be booked, and the free delivery days',
    description:
      'Changes nothing and leaves the token usable. `status`: available (POST would book it), scheduled (already the sale’s), unavailable (`reason` says why) or not_schedulable.',
    responses: { 200: { description: 'The check.', body: coreRdvCheck, example: rdvCheckExample }, ...tokenResponses('rdv') },
  },
  action(
    'rdv',
    '/api/sale-rdv-check/:token',
    'applySaleRdv',
    'Books the delivery appointment the token carries',
    coreRdvApplied,
    'A full slot, a holiday, a closed day, a past day or a sale with nothing left to deliver answers 409.',
    refusal('slot_full', { date: '2026-12-01', time: '10:00' }),
  ),
  action(
    'address',
    '/api/sale-address/:token',
    'changeSaleAddress',
    'Delivers the sale to the address the token carries',
    coreAddressChanged,
    'Refused (409) once a product has shipped (`already_shipped`) or when the sale is cancelled.',
    refusal('already_shipped'),
  ),
  action(
    'delivery-rdv',
    '/api/sale-delivery-rdv/:token',
    'saveSaleDeliveryRdv',
    'Records the appointment a third-party delivery service gave (provider, reference, date?, time window?)',
    coreDeliveryRdvSaved,
    'Refused (409) when the sale is cancelled; no place is booked in our planning.',
    refusal('sale_cancelled'),
  ),
  action(
    'cancel',
    '/api/sale-cancel/:token',
    'cancelSaleByToken',
    "Cancels the token's products, or the whole sale, and requests the refund of what was paid",
    coreSaleCancelled,
    'Nothing shipped can be cancelled (409 `already_shipped`); a token cancels once, so a link clicked many times refunds once.',
    refusal('action_token_used'),
  ),
];
