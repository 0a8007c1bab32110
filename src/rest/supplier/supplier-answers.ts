import { HttpError } from '../../http/http-error.ts';

/**
 * The supplier API's documented answers, in one place: the suppliers' existing clients compare these
 * texts byte for byte, so they are never reworded. The error handler renders the HttpErrors in the
 * supplier envelope (`{ success: false, message }`, or `{ error, message }` for the 401).
 */
export const supplierTexts = {
  acknowledged: 'Votre produit a bien été acquitté',
  shipped: 'Votre produit a été expédié avec succès',
  nothingDeliverable: "Aucun produit livrable n'a été trouvé pour être expédié",
  refused: 'Votre refus du produit a bien été enregistré',
} as const;

/** Missing, unknown or revoked token, or a token of another group or of the other supplier: one answer. */
export const unauthorized = (): HttpError => new HttpError(401, 'Unauthorized', 'Invalid or missing Bearer token');

export const invalidServiceOrderId = (): HttpError => new HttpError(400, 'Bad Request', 'Invalid service_order_id format');

/**
 * A body field other than the line's identifier that cannot be read (ship-sale's tracking, refuse-sale's
 * reason and comment); the identifier itself keeps its legacy answer.
 */
export const invalidBodyField = (field: string, message: string): HttpError =>
  field === '' || field === 'service_order_id' ? invalidServiceOrderId() : new HttpError(400, 'Bad Request', `Invalid ${field}: ${message}`);

export const orderNotFoundOrProcessed = (): HttpError => new HttpError(404, 'Not Found', 'Order not found or already processed');

/** The message refusing get-sales parameters it does not know (see query-parameters.ts). */
export const unknownParameters = (keys: readonly string[], known: readonly string[]): string =>
  known.length === 0
    ? `Unknown parameter(s) ${keys.join(', ')}; this operation takes no query parameter`
    : `Unknown parameter(s) ${keys.join(', ')}; the parameters are ${known.join(', ')}`;

/** A get-sales query parameter that cannot be read; the message names the parameter. */
export const invalidParameter = (message: string): HttpError => new HttpError(400, 'Bad Request', message);
