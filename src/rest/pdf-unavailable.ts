import type { Context } from 'koa';
import { PdfPoolBusyError, PdfPoolClosedError, PdfRenderFailedError } from '../pdf/pdf-errors.ts';
import { HttpError } from '../http/http-error.ts';

/**
 * What needs a PDF rendered (the PDF, a label on disk), or the 503 its route answers (in the route's group envelope, through the error
 * handler) when the renderers cannot make it now: every one busy and the queue full (`Retry-After`:
 * the queue's expected wait), a renderer that failed or ran out of time (already logged by the pool,
 * and replaced), or a shutdown under way. Any other error stays unexpected (500).
 */
export const renderedOr503 = async <T>(ctx: Context, rendering: Promise<T>): Promise<T> => {
  try {
    return await rendering;
  } catch (error) {
    if (error instanceof PdfPoolBusyError) {
      ctx.set('Retry-After', String(error.retryAfterSeconds));
      throw new HttpError(503, 'Service Unavailable', 'Every document renderer is busy; retry shortly.');
    }
    if (error instanceof PdfRenderFailedError) {
      ctx.set('Retry-After', '1');
      throw new HttpError(503, 'Service Unavailable', 'The document could not be rendered; retry shortly.');
    }
    if (error instanceof PdfPoolClosedError) {
      throw new HttpError(503, 'Service Unavailable', 'The service is shutting down; retry shortly.');
    }
    throw error;
  }
};
