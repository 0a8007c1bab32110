import type { z } from 'zod';
import { HttpError } from '../../../http/http-error.ts';

/** The errors of the core sale reads, in the core envelope `{ success: false, error, message }`. */

/** The first zod issue of a path parameter; the message starts with the parameter's name. */
export const invalidParameter = (field: string, issue: z.core.$ZodIssue): HttpError =>
  new HttpError(400, 'invalid_request', `${field === '' ? 'request' : field}: ${issue.message}`);

export const saleNotFound = (how: { id: number } | { incrementId: string }): HttpError =>
  new HttpError(404, 'not_found', 'id' in how ? `No sale found with ID ${how.id}` : `No sale found with increment ID ${how.incrementId}`);
