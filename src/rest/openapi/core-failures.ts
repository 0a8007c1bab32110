import { z } from 'zod';
import { coreUnauthorized } from '../core/core-auth.ts';
import { unknownParameters } from '../core/core-query.ts';
import { serverErrorTexts } from '../envelopes.ts';
import { HttpError } from '../../http/http-error.ts';
import { bodyErrorTexts } from '../middleware/error-handler.ts';
import type { ResponseDoc } from './document.ts';

/**
 * The core API's error answers for the document: one English envelope for every status, each example
 * built by the very function that builds the route's answer, so the examples cannot drift from it.
 */

export const coreError = z.object({ success: z.literal(false), error: z.string(), message: z.string() });

export const failure = (description: string, answer: HttpError, body: z.ZodType = coreError): ResponseDoc => ({
  description,
  body,
  example: { success: false, error: answer.error, message: answer.message, ...answer.extra },
});

/** The 400 a route answers to this input: the schema's own first issue, as parseInput reports it with `refuse`. */
export const refusalOf = (schema: z.ZodType, input: unknown, refuse: (field: string, issue: z.core.$ZodIssue) => HttpError): HttpError => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('The example input of a 400 must be refused by its schema');
  const issue = result.error.issues[0]!;
  return refuse(issue.path.map(String).join('.'), issue);
};

/** Every core route refuses a query parameter it does not know. */
export const unknownQueryParameter = (known: readonly string[] = []): HttpError => new HttpError(400, 'invalid_request', unknownParameters(['foo'], known));

/** What every core route may answer: a refused token, an unexpected error. */
export const coreCommon: Record<number, ResponseDoc> = {
  401: failure("Missing, unknown or revoked Bearer token, or another group's (supplier, chatbot, analyst).", coreUnauthorized()),
  500: failure('An unexpected error; no internal detail is given.', new HttpError(500, serverErrorTexts.core.error, serverErrorTexts.core.message)),
};

/** What every core route taking a JSON body may answer besides. */
export const coreBodyFailures = (limitMib = 1): Record<number, ResponseDoc> => ({
  413: failure(`The request body exceeds ${limitMib} MiB.`, new HttpError(413, ...bodyErrorTexts.tooLarge.core(limitMib))),
  415: failure(
    'The body is not JSON (JSON sent without a Content-Type, or as text/plain, is read as JSON).',
    new HttpError(415, ...bodyErrorTexts.notJson.core),
  ),
});

export const coreBase = { security: 'coreBearer' as const };

/** Node's HTTP parser refuses a request head over 16 KiB before any route: a path token can make one. */
export const requestHeadTooLarge: ResponseDoc = {
  description: 'The request line and headers exceed 16 KiB (a token far longer than any we issue): refused by the HTTP server, with no body.',
};
