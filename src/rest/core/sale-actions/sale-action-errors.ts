import type { z } from 'zod';
import type { Refusal } from '../../../events/decider.ts';
import { HttpError } from '../../../http/http-error.ts';

/** The answers of the sale actions, in one place: what each refusal of the deciders tells the client. */

export const invalidRequest = (field: string, issue: z.core.$ZodIssue): HttpError => new HttpError(400, 'invalid_request', `${field}: ${issue.message}`);

/** A token we signed whose data does not read as its kind's: minted by another version, never the client's doing. */
export const invalidTokenData = (field: string, issue: z.core.$ZodIssue): HttpError =>
  new HttpError(400, 'invalid_action_token', `The action token's data is not valid (data.${field}: ${issue.message})`);

export const saleNotFound = (saleId: number): HttpError => new HttpError(404, 'sale_not_found', `No sale with ID ${saleId}`);

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const ids = (value: unknown): string => (Array.isArray(value) ? value.join(', ') : '');

/** Status and sentence per refusal code; 404 only for what does not exist, 409 for every conflicting state. */
const answers: Record<string, (details: Readonly<Record<string, unknown>>) => [number, string]> = {
  action_token_used: () => [409, 'This action token has already been used'],
  sale_not_found: () => [404, 'No such sale'],
  unknown_product: (details) => [404, `Not a product of the sale: ${ids(details.saleProductIds)}`],
  already_shipped: () => [409, 'A product of the sale has already been shipped'],
  sale_cancelled: () => [409, 'The sale is cancelled'],
  not_schedulable: () => [409, 'The sale has nothing left to deliver: no appointment can be scheduled'],
  appointment_changed: () => [409, 'The delivery appointment changed meanwhile'],
  slot_full: (details) => [409, `The delivery slot of ${text(details.date)} at ${text(details.time)} is full`],
  holiday: (details) => [409, `${text(details.date)} is a holiday: no delivery that day`],
  closed_day: (details) => [409, `No delivery is made on the weekday of ${text(details.date)}`],
  unknown_slot: (details) => [409, `There is no delivery slot at ${text(details.time)}`],
  in_the_past: (details) => [409, `The appointment day ${text(details.date)} is in the past`],
};

export const refusalError = (refusal: Refusal): HttpError => {
  const [status, message] = answers[refusal.code]?.(refusal.details) ?? [409, refusal.message];
  return new HttpError(status, refusal.code, message);
};
