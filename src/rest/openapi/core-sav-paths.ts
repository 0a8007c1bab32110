import { z } from 'zod';
import { savStatusValues } from '../../events/after-sales/events.ts';
import type { SavTransition } from '../../events/after-sales/sav-commands.ts';
import type { ExistingSav, SavStatus } from '../../events/after-sales/sav-state.ts';
import { decideTransition } from '../../events/after-sales/sav-transitions.ts';
import { isRefusal } from '../../events/decider.ts';
import { coreUnauthorized } from '../core/core-auth.ts';
import { invalidRequest, savChangeRefused, savNotFound } from '../core/sav/sav-errors.ts';
import { cancelSavBody, closeSavBody, reopenSavBody, resolveSavBody } from '../../contracts/sav-status-changes.ts';
import { savIdParams } from '../core/sav/schemas.ts';
import { serverErrorTexts } from '../envelopes.ts';
import { HttpError } from '../../http/http-error.ts';
import { bodyErrorTexts } from '../middleware/error-handler.ts';
import { coreError } from './core-failures.ts';
import type { ResponseDoc, RouteDoc } from './document.ts';

/** The staff's status changes of a SAV (core API); the error examples are the routes' own answers. */

const slot = z.object({ date: z.iso.date(), time: z.string().describe('HH:MM') });

export const savStatusChanged = z.object({
  success: z.literal(true),
  message: z.string(),
  sav_id: z.number().int(),
  status: savStatusValues.describe('The status the SAV now has (in_progress once reopened)'),
  status_changed_at: z.string().describe('An ISO 8601 instant: when the change was recorded'),
  released_appointment: slot
    .nullable()
    .describe('The appointment given back to the planning: closing or cancelling a SAV whose appointment day is today or later'),
});

const savConflict = coreError.extend({ sav_status: savStatusValues.describe('The status that does not allow the change') });

export const coreSavComponents = { CoreError: coreError, SavStatusChanged: savStatusChanged, SavStatusConflict: savConflict };

const failure = (description: string, answer: HttpError, body: z.ZodType = coreError): ResponseDoc => ({
  description,
  body,
  example: { success: false, error: answer.error, message: answer.message, ...answer.extra },
});

/** The 400 the route answers to this body: the schema's own first issue, as parseInput reports it. */
const refusalOf = (schema: z.ZodType, input: unknown): HttpError => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('The example input of a 400 must be refused by its schema');
  const issue = result.error.issues[0]!;
  return invalidRequest(issue.path.map(String).join('.'), issue);
};

/** The 409 the route answers when the SAV has this status, as the decider words it. */
const conflictOf = (command: SavTransition, status: SavStatus): HttpError => {
  const sav: ExistingSav = {
    exists: true,
    savId: 5,
    saleId: 1,
    saleProductIds: [1],
    status,
    appointment: null,
    releasedAppointment: null,
    fileIds: new Set(),
    fetches: new Map(),
  };
  const decision = decideTransition(command, sav);
  if (!isRefusal(decision)) throw new Error(`The example of a 409 must be refused: ${command.type} from ${status}`);
  return savChangeRefused(5, decision);
};

const at = '2026-10-05T08:00:00.000Z';

const route = (
  verb: 'resolve' | 'close' | 'reopen' | 'cancel',
  summary: string,
  body: z.ZodType,
  allowed: string,
  badBody: unknown,
  conflict: HttpError,
): RouteDoc => ({
  method: 'post',
  path: `/api/sale-sav/:id/${verb}`,
  operationId: `${verb}Sav`,
  summary,
  description: `Allowed from ${allowed}; any other status answers 409 and records nothing. Of two changes racing on one SAV, the second is decided again against the first.`,
  tags: ['core-sav'],
  security: 'coreBearer',
  pathParams: savIdParams,
  body,
  ...(verb === 'close' && { bodyOptional: true }),
  responses: {
    200: { description: 'The change was recorded.', body: savStatusChanged },
    400: failure(
      'The ID is not a SAV ID; a field is missing, invalid or unknown; or the body is declared JSON but malformed. The message names the field.',
      refusalOf(body, badBody),
    ),
    401: failure("Missing, unknown or revoked token, or another group's (supplier, chatbot, analyst).", coreUnauthorized()),
    404: failure('No SAV has this ID.', savNotFound(5)),
    409: failure('The SAV’s status does not allow this change; `sav_status` is that status.', conflict, savConflict),
    413: failure('The request body exceeds 1 MiB.', new HttpError(413, ...bodyErrorTexts.tooLarge.core())),
    415: failure(
      'The body is not JSON (JSON sent without a Content-Type, or as text/plain, is read as JSON).',
      new HttpError(415, ...bodyErrorTexts.notJson.core),
    ),
    500: failure('An unexpected error; no internal detail is given.', new HttpError(500, serverErrorTexts.core.error, serverErrorTexts.core.message)),
  },
});

export const coreSavRouteDocs = (): RouteDoc[] => [
  route(
    'resolve',
    'Staff resolve a SAV in progress, saying what was done',
    resolveSavBody,
    'in_progress',
    {},
    conflictOf({ type: 'ResolveSav', resolution: 'x', at }, 'cancelled'),
  ),
  route(
    'close',
    'Staff close a resolved SAV; its appointment, unless past, is given back',
    closeSavBody,
    'resolved',
    { reason: 'x' },
    conflictOf({ type: 'CloseSav', today: '2026-10-05', at }, 'in_progress'),
  ),
  route(
    'reopen',
    'Staff reopen a resolved or closed SAV, saying why',
    reopenSavBody,
    'resolved or closed',
    {},
    conflictOf({ type: 'ReopenSav', reason: 'x', at }, 'in_progress'),
  ),
  route(
    'cancel',
    'Staff cancel a SAV in progress, saying why; its appointment, unless past, is given back',
    cancelSavBody,
    'in_progress',
    {},
    conflictOf({ type: 'CancelSav', reason: 'x', today: '2026-10-05', at }, 'closed'),
  ),
];
