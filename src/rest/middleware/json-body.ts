import bodyParser from 'koa-bodyparser';
import type { Middleware } from 'koa';

/** JSON bodies only, 1 MiB at most (413 above), malformed JSON refused with 400 by the error handler. */
export const jsonBody = (): Middleware =>
  bodyParser({
    enableTypes: ['json'],
    jsonLimit: '1mb',
    strict: true,
    onerror: (error) => {
      throw error;
    },
  });
