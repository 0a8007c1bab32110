import { z } from 'zod';
import { savStatusValues } from '../../events/after-sales/events.ts';
import { Refusal } from '../../events/decider.ts';
import { HttpError } from '../../http/http-error.ts';
import { chatbotAppointmentRefused } from '../chatbot/appointment-texts.ts';
import { chatbotUnauthorized, invalidParameters, savNotFound as chatbotSavNotFound } from '../chatbot/chatbot-errors.ts';
import { appointmentBody as chatbotBody, appointmentSlotsQuery as chatbotSlotsQuery, chatbotSavId } from '../chatbot/schemas.ts';
import { coreAppointmentRoutes } from '../core/sav/appointment-texts.ts';
import { invalidRequest, savNotFound } from '../core/sav/sav-errors.ts';
import { appointmentBody, appointmentSlotsQuery, savIdParams } from '../core/sav/schemas.ts';
import { serverErrorTexts } from '../envelopes.ts';
import { bodyErrorTexts } from '../middleware/error-handler.ts';
import { chatbotError } from './chatbot-responses.ts';
import { coreBase, coreBodyFailures, coreCommon, coreError, failure, refusalOf } from './core-failures.ts';
import type { ResponseDoc, RouteDoc } from './document.ts';

/**
 * A SAV's appointment (rest/sav-appointments): its free slots and booking or moving it, for staff
 * (core API) and for the customer (chatbot API, in French). The examples are the routes' own answers.
 */

const day = z.iso.date();
const slot = z.object({ date: day, time: z.string().describe('HH:MM') });

export const savFreeSlots = z.object({
  success: z.literal(true),
  sav_id: z.number().int(),
  sav_status: savStatusValues.describe('Only a SAV in_progress can be given an appointment'),
  appointment: slot.nullable().describe("The SAV's appointment, if it has one"),
  range: z.object({ start: day, end: day }).describe('The period looked at'),
  timezone: z.string().describe('The planning time zone the days and times are in'),
  slots: z
    .array(
      z.object({
        date: day,
        time: z.string().describe('HH:MM'),
        free: z.number().int().describe('Places left (the SAV asked about does not count its own)'),
        capacity: z.number().int().describe('Places per slot'),
      }),
    )
    .describe('The slots with a place left, by day and time: no past day, no closed weekday, no holiday'),
});

export const savAppointmentMoved = z.object({
  success: z.literal(true),
  message: z.string(),
  sav_id: z.number().int(),
  status: z.enum(['scheduled', 'unchanged']).describe('unchanged: the SAV already had this appointment; nothing was recorded'),
  appointment: slot,
  previous_appointment: slot.nullable().describe('The slot given back to the planning, when the appointment was moved'),
});

const appointmentConflict = coreError.extend({
  sav_status: savStatusValues.optional().describe('With sav_status_conflict: the status that allows no appointment'),
});

export const savAppointmentComponents = { CoreAppointmentConflict: appointmentConflict, SavFreeSlots: savFreeSlots, SavAppointmentMoved: savAppointmentMoved };

const example = { date: '2026-12-01', time: '14:00' };
const rules =
  'The rules of the first booking apply: no day before today (in the planning time zone), only working days, no holiday, one of the slot times, the capacity per slot.';
const race =
  "The new place is taken first, on the planning day's stream with its expected revision: of requests racing for the last place, one wins and the others answer 409 slot_full. Then the move is recorded and the old place given back. A refusal records nothing.";

const coreRefused = (code: string) =>
  coreAppointmentRoutes.texts.refused(5, new Refusal(code, code, { status: 'closed', slotTimes: ['09:00', '11:00', '14:00', '16:00'] }), example);

const coreDocs = (): RouteDoc[] => [
  {
    ...coreBase,
    tags: ['core-planning'],
    method: 'get',
    path: '/api/sale-sav/:id/appointment/slots',
    operationId: 'getSavAppointmentSlots',
    summary: "The free slots of the SAV planning for a SAV's appointment",
    description: `The period: \`start_date\` (default today) to \`end_date\` (default 30 days later, at most 366 days); days before today are never listed. ${rules} Read from the read models: the booking decides.`,
    pathParams: savIdParams,
    query: appointmentSlotsQuery,
    responses: {
      200: { description: 'The free slots.', body: savFreeSlots },
      400: failure(
        'The ID or a parameter is invalid or unknown, or the period is reversed or too long.',
        refusalOf(appointmentSlotsQuery, { start_date: '2026-13-01' }, invalidRequest),
      ),
      ...coreCommon,
      404: failure('No SAV has this ID.', savNotFound(404404)),
    },
  },
  {
    ...coreBase,
    tags: ['core-planning'],
    method: 'post',
    path: '/api/sale-sav/:id/appointment',
    operationId: 'moveSavAppointment',
    summary: "Books a SAV's appointment on a free slot, or moves it there",
    description: `${rules} ${race} A phone or comment not given keeps the appointment's own; null clears it. A reopened SAV books again.`,
    pathParams: savIdParams,
    body: appointmentBody,
    bodyExample: { date: '2026-12-01', time: '14:00', comment: 'Digicode 1234' },
    responses: {
      200: { description: 'The appointment is booked or moved (or already was).', body: savAppointmentMoved },
      400: failure('The ID is invalid, or a field is missing, invalid or unknown.', refusalOf(appointmentBody, { date: '2026-12-01' }, invalidRequest)),
      ...coreCommon,
      404: failure('No SAV has this ID.', savNotFound(404404)),
      409: failure(
        'The slot cannot be had (slot_full, in_the_past, closed_day, holiday, unknown_slot), or the SAV is not in progress (sav_status_conflict, with `sav_status`); nothing is recorded.',
        coreRefused('slot_full'),
        appointmentConflict,
      ),
      ...coreBodyFailures(),
    },
  },
];

const chatbotFailure = (description: string, answer: Pick<HttpError, 'error' | 'message'>): ResponseDoc => ({
  description,
  body: chatbotError,
  example: { success: false, error: answer.error, message: answer.message },
});
const chatbotRefusalOf = (schema: z.ZodType, input: unknown): HttpError => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('The example input of a 400 must be refused by its schema');
  const issue = result.error.issues[0]!;
  return invalidParameters(issue.path.map(String).join('.'), issue);
};
const chatbotCommon: Record<number, ResponseDoc> = {
  401: chatbotFailure("Missing, unknown or revoked X-API-Token, or another group's token.", chatbotUnauthorized()),
  500: chatbotFailure('An unexpected error; no internal detail is given.', serverErrorTexts.chatbot),
};
const chatbotPath = z.object({ savId: chatbotSavId.describe('Le numéro du SAV') });
const notTheirs = "No SAV has this ID, or the e-mail is neither the SAV's nor its order's customer's (one answer for both).";

const chatbotDocs = (): RouteDoc[] => [
  {
    tags: ['chatbot'],
    security: 'apiToken',
    method: 'get',
    path: '/api/sav/:savId/appointment/slots',
    operationId: 'getChatbotSavAppointmentSlots',
    summary: 'The free slots a customer may move their SAV appointment to',
    description: `The customer's e-mail is required. ${rules}`,
    pathParams: chatbotPath,
    query: chatbotSlotsQuery,
    responses: {
      200: { description: 'The free slots.', body: savFreeSlots },
      400: chatbotFailure('A parameter is missing, invalid or unknown, or the period is reversed or too long.', chatbotRefusalOf(chatbotSlotsQuery, {})),
      ...chatbotCommon,
      404: chatbotFailure(notTheirs, chatbotSavNotFound(5)),
    },
  },
  {
    tags: ['chatbot'],
    security: 'apiToken',
    method: 'post',
    path: '/api/sav/:savId/appointment',
    operationId: 'moveChatbotSavAppointment',
    summary: 'A customer books or moves their SAV appointment',
    description: `The customer's e-mail is required. ${rules} ${race} The messages are French, to be shown to the customer.`,
    pathParams: chatbotPath,
    body: chatbotBody,
    bodyExample: { email: 'zbrunet580@example.org', date: '2026-12-01', time: '14:00' },
    responses: {
      200: { description: 'The appointment is booked or moved (or already was).', body: savAppointmentMoved },
      400: chatbotFailure('A field is missing or invalid; the message names it.', chatbotRefusalOf(chatbotBody, { email: 'zbrunet580@example.org' })),
      ...chatbotCommon,
      404: chatbotFailure(notTheirs, chatbotSavNotFound(5)),
      409: chatbotFailure(
        'The slot cannot be had (full, past, closed day, holiday, no such slot) or the SAV is no longer in progress; nothing is recorded.',
        chatbotAppointmentRefused(5, new Refusal('slot_full', 'full'), example),
      ),
      413: chatbotFailure('The request body exceeds 1 MiB.', { error: bodyErrorTexts.tooLarge.chatbot(1)[0], message: bodyErrorTexts.tooLarge.chatbot(1)[1] }),
      415: chatbotFailure('The body is not JSON.', { error: bodyErrorTexts.notJson.chatbot[0], message: bodyErrorTexts.notJson.chatbot[1] }),
    },
  },
];

export const savAppointmentRouteDocs = (): RouteDoc[] => [...coreDocs(), ...chatbotDocs()];
