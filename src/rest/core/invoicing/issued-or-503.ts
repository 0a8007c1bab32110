import type { Context } from 'koa';
import { ConcurrencyConflictError } from '../../../events/command-handler.ts';
import { RegisterBehindError } from '../../../events/invoicing/issuing-register.ts';
import type { Runtime } from '../../../runtime.ts';
import { HttpError } from '../../../http/http-error.ts';

/**
 * A document being issued, or the 503 its route answers when the register cannot issue it now: its read
 * model lags behind the log (issuing then could number a sale's document twice), or other processes
 * kept winning the race for the next number. Nothing was recorded either way: the request can be retried.
 */
const retryable = (error: unknown): boolean => error instanceof RegisterBehindError || error instanceof ConcurrencyConflictError;

export const issuedOr503 = async <T>(ctx: Context, issuing: Promise<T>): Promise<T> => {
  try {
    return await issuing;
  } catch (error) {
    if (retryable(error)) {
      ctx.set('Retry-After', '1');
      throw new HttpError(503, 'Service Unavailable', 'The document register is busy; retry shortly.');
    }
    throw error;
  }
};

/**
 * Issues the sale's credit note that is due and was not issued yet (a cancellation interrupted before
 * issuing it), without failing the request it repairs on the way: when the register cannot issue now,
 * the next request will.
 */
export const issueDueCreditNote = async (runtime: Runtime, saleId: number): Promise<void> => {
  try {
    await runtime.invoicing.creditNoteFor(saleId);
  } catch (error) {
    if (!retryable(error)) throw error;
    runtime.log.warn({ saleId, error: (error as Error).message }, 'Credit note due not issued yet; the next request of the sale will');
  }
};
