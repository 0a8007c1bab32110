import type { Context } from 'koa';
import { ConcurrencyConflictError } from '../../../events/command-handler.ts';
import { RegisterBehindError } from '../../../events/invoicing/issuing-register.ts';
import { HttpError } from '../../http-error.ts';

/**
 * A document being issued, or the 503 its route answers when the register cannot issue it now: its read
 * model lags behind the log (issuing then could number a sale's document twice), or other processes
 * kept winning the race for the next number. Nothing was recorded either way: the request can be retried.
 */
export const issuedOr503 = async <T>(ctx: Context, issuing: Promise<T>): Promise<T> => {
  try {
    return await issuing;
  } catch (error) {
    if (error instanceof RegisterBehindError || error instanceof ConcurrencyConflictError) {
      ctx.set('Retry-After', '1');
      throw new HttpError(503, 'Service Unavailable', 'The document register is busy; retry shortly.');
    }
    throw error;
  }
};
