import { HttpError } from '../../http/http-error.ts';

/**
 * The answers of GET /api/files, in the supplier envelope (`{ success: false, message }`, or
 * `{ error, message }` for the 401): the suppliers' clients read these texts.
 */

export const unauthorized = (): HttpError => new HttpError(401, 'Unauthorized', 'Invalid or missing Bearer token');

/** A signed link that does not verify: one answer whatever the reason (altered, another line's, expired). */
export const invalidLink = (): HttpError => new HttpError(403, 'Forbidden', 'Invalid or expired label link');

/** No such label, or another supplier's: the same answer, so that a token learns nothing of other lines. */
export const fileNotFound = (): HttpError => new HttpError(404, 'Not Found', 'File not found');
