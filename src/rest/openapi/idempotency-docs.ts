import { z } from 'zod';
import { idempotencyTexts } from '../idempotency/idempotency-answers.ts';
import type { ApiGroupName } from '../middleware/api-group.ts';
import { supplierFailureBody } from './supplier-paths.ts';
import { chatbotError } from './chatbot-responses.ts';
import { coreError } from './core-failures.ts';
import type { ResponseDoc, RouteDoc, SecurityName } from './document.ts';

/**
 * The `Idempotency-Key` of every POST of the three API groups (middleware/idempotency-key.ts), added
 * to their operations in one place: the request header, the replay marker on the answers, the 422 of
 * a key used for another request and the 409 of a key whose request is still running, in the group's envelope.
 */

export const idempotencyKeyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x20-\x7e]+$/)
    .optional()
    .describe(
      'A key of your choosing (1 to 255 printable ASCII characters, e.g. a UUID), one per operation you mean to carry out once. Sent again with the same request, within 24 hours, it gets the first answer again (status and body) with Idempotent-Replayed: true, instead of a second execution. Scoped to your token. Answers that recorded nothing (a validation error, a refusal) are not kept: their retry is evaluated again.',
    ),
});

const replayedHeader = z.object({
  'Idempotent-Replayed': z.literal('true').optional().describe('Present on an answer given again for an Idempotency-Key already answered.'),
});

const groupOf: Partial<Record<SecurityName, ApiGroupName>> = { coreBearer: 'core', supplierBearer: 'supplier', apiToken: 'chatbot' };

const failure = (group: ApiGroupName, description: string, [error, message]: readonly [string, string]): ResponseDoc => {
  if (group === 'supplier') return { description, body: supplierFailureBody, example: { success: false, message } };
  return { description, body: group === 'core' ? coreError : chatbotError, example: { success: false, error, message } };
};

const withReplayMarker = (response: ResponseDoc): ResponseDoc => ({
  ...response,
  headers: response.headers ? response.headers.extend(replayedHeader.shape) : replayedHeader,
});

const badKey = 'The Idempotency-Key header is empty, longer than 255 characters or not printable ASCII.';
const stillRunning = 'The request first sent with this Idempotency-Key is still running; retry later.';

/** An operation's own answer of that status, its description telling the key's case too; or the key's answer alone. */
const also = (own: ResponseDoc | undefined, keys: ResponseDoc): ResponseDoc =>
  own ? { ...own, description: `${own.description} Also: ${keys.description}` } : keys;

export const withIdempotencyKeys = (routes: readonly RouteDoc[]): RouteDoc[] =>
  routes.map((route) => {
    const group = route.security && groupOf[route.security];
    if (route.method !== 'post' || group === undefined) return route;
    const responses: Record<number, ResponseDoc> = Object.fromEntries(
      Object.entries(route.responses).map(([status, response]) => [status, Number(status) < 500 ? withReplayMarker(response) : response]),
    );
    responses[400] = also(responses[400], failure(group, badKey, idempotencyTexts.invalidKey[group]));
    responses[409] = also(responses[409], failure(group, stillRunning, idempotencyTexts.stillRunning[group]));
    responses[422] = failure(
      group,
      'This Idempotency-Key was used, within 24 hours, for another request (method, path or body).',
      idempotencyTexts.keyReused[group],
    );
    return { ...route, headers: route.headers ? route.headers.extend(idempotencyKeyHeader.shape) : idempotencyKeyHeader, responses };
  });
