import { z } from 'zod';

/**
 * What staff send to change a SAV's status, the same through REST (POST /api/sale-sav/{id}/resolve,
 * close, reopen, cancel) and GraphQL (resolveSav, closeSav, reopenSav, cancelSav): each body takes its
 * fields only (an unknown one is refused, not silently dropped), its note trimmed, 1 to 2000 characters.
 */

const statusNote = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a text of 1 to 2000 characters') })
  .trim()
  .min(1)
  .max(2000);

const statusChangeBody = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : 'The request body must be a JSON object'),
  });

/** Resolve: what was done for the customer (the chatbot shows it to them). */
export const resolveSavBody = statusChangeBody({
  resolution: statusNote.describe('What was done for the customer; the chatbot shows it to them'),
});

/** Close: nothing to say (an empty object, or no body). */
export const closeSavBody = statusChangeBody({});

/** Reopen, with why. */
export const reopenSavBody = statusChangeBody({ reason: statusNote.describe('Why the SAV is reopened; seen by staff only') });

/** Cancel, with why. */
export const cancelSavBody = statusChangeBody({ reason: statusNote.describe('Why the SAV is cancelled; seen by staff only') });
