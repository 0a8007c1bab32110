import { InvalidEventError } from './registry.ts';
import { ConcurrencyConflictError } from './command-handler.ts';
import { InvalidEventStoreRequestError, WrongExpectedVersionError } from './store/event-store.ts';

/**
 * Whether a command that threw is sure to have recorded nothing: it lost every race on its stream
 * (wrong expected revision), its events failed their schema before being sent, or the store refused
 * the request for its arguments. Anything else (the
 * store unreachable, a connection cut during the append, a time-out) may have reached the log all the
 * same, so whatever the command would give back on failure (a planning place, a spent action token, a
 * stored file) is kept: a place no one holds or a file no event names is a lesser harm than an
 * appointment whose place went to someone else, or an event naming a file that is gone.
 */
export const recordedNothing = (error: unknown): boolean =>
  error instanceof ConcurrencyConflictError ||
  error instanceof WrongExpectedVersionError ||
  error instanceof InvalidEventError ||
  error instanceof InvalidEventStoreRequestError;
