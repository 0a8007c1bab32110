import type { ApiGroupName } from '../middleware/api-group.ts';
import { HttpError } from '../../http/http-error.ts';

/** The refusals of the `Idempotency-Key` header, in each API group's words (the chatbot's are French). */

const texts = {
  invalidKey: {
    core: ['Bad Request', 'The Idempotency-Key header must hold 1 to 255 printable ASCII characters'],
    supplier: ['Bad Request', 'The Idempotency-Key header must hold 1 to 255 printable ASCII characters'],
    chatbot: ['Paramètres invalides', "L'en-tête Idempotency-Key doit compter de 1 à 255 caractères ASCII imprimables"],
  },
  keyReused: {
    core: ['Unprocessable Entity', 'This Idempotency-Key was already used for another request'],
    supplier: ['Unprocessable Entity', 'This Idempotency-Key was already used for another request'],
    chatbot: ['Clé déjà utilisée', 'Cette clé Idempotency-Key a déjà servi pour une autre requête'],
  },
  stillRunning: {
    core: ['Conflict', 'A request with this Idempotency-Key is still being processed; retry later'],
    supplier: ['Conflict', 'A request with this Idempotency-Key is still being processed; retry later'],
    chatbot: ['Requête en cours', 'Une requête avec cette clé Idempotency-Key est encore en cours de traitement ; réessayez plus tard'],
  },
} as const satisfies Record<string, Record<ApiGroupName, readonly [string, string]>>;

const refusal = (status: number, [error, message]: readonly [string, string]): HttpError => new HttpError(status, error, message);

export const invalidIdempotencyKey = (group: ApiGroupName): HttpError => refusal(400, texts.invalidKey[group]);
export const idempotencyKeyReused = (group: ApiGroupName): HttpError => refusal(422, texts.keyReused[group]);
export const idempotencyKeyInUse = (group: ApiGroupName): HttpError => refusal(409, texts.stillRunning[group]);

/** The texts as the OpenAPI document shows them. */
export const idempotencyTexts = texts;
