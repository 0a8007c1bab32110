import { Refusal } from '../decider.ts';
import type { SavEvent } from './events.ts';
import type { RecordSavFileFetched, RecordSavFileFetchFailed, SavFileFetchFailure } from './sav-commands.ts';
import type { SavRefusalCode } from './sav-refusals.ts';
import type { SavFileFetch, SavState } from './sav-state.ts';

/**
 * The outbox of the files given by URL: a link attached to a SAV (SavFileAttached without a stored
 * path) is owed a fetch. The fetch job records each attempt's outcome on the SAV's stream, so a file is
 * stored once, and a failing host is retried with a growing delay, then given up. What is owed is
 * folded from the events in sav-state.ts.
 */

/** After this many failed attempts the file is given up: 1 + 2 + 4 + ... minutes, about two hours in all. */
export const maxSavFileFetchAttempts = 8;

/** Failures a retry cannot mend: the address policy refuses the host, the file is too large or not an image or video. */
const finalFailures: ReadonlySet<SavFileFetchFailure> = new Set(['url_refused', 'too_large', 'unsupported_type']);

const minute = 60_000;
const maxDelay = 60 * minute;

/** Delay before the attempt after failed attempt `attempt` (1-based): 1 min, 2, 4, 8 ... capped at 1 h. */
export const nextFetchDelay = (attempt: number): number => Math.min(maxDelay, minute * 2 ** Math.min(6, Math.max(0, Math.floor(attempt) - 1)));

/** Whether the job should try to fetch this file now. */
export const isFetchDue = (fetch: SavFileFetch | undefined, now: Date): fetch is SavFileFetch =>
  fetch?.status === 'pending' && fetch.nextAttemptAt !== null && Date.parse(fetch.nextAttemptAt) <= now.getTime();

/** The fetch owed for a file, or the refusal when the SAV or the link does not exist. */
const owedFetch = (state: SavState, fileId: string): { savId: number; fetch: SavFileFetch } | Refusal<SavRefusalCode> => {
  if (!state.exists) return new Refusal('unknown_sav', 'No SAV with this ID');
  const fetch = state.fetches.get(fileId);
  return fetch ? { savId: state.savId, fetch } : new Refusal('unknown_sav_file', 'No file of this SAV is to be fetched under this ID', { fileId });
};

export const decideFetched = (command: RecordSavFileFetched, state: SavState): SavEvent[] | Refusal<SavRefusalCode> => {
  const owed = owedFetch(state, command.fileId);
  if (owed instanceof Refusal) return owed;
  // Stored already (a second job run, another process) or given up: the fetcher discards its copy.
  if (owed.fetch.status !== 'pending') return [];
  const { type: _type, at, ...fetched } = command;
  return [{ type: 'SavFileFetched', data: { savId: owed.savId, fileName: owed.fetch.fileName, ...fetched, fetchedAt: at } }];
};

export const decideFetchFailed = (command: RecordSavFileFetchFailed, state: SavState): SavEvent[] | Refusal<SavRefusalCode> => {
  const owed = owedFetch(state, command.fileId);
  if (owed instanceof Refusal) return owed;
  // The same attempt reported twice counts once.
  if (owed.fetch.status !== 'pending' || command.attempt <= owed.fetch.attempts) return [];
  const { fileId, attempt, reason, error, at } = command;
  const final = finalFailures.has(reason) || attempt >= maxSavFileFetchAttempts;
  const nextAttemptAt = final ? null : command.nextAttemptAt;
  const { savId, fetch } = owed;
  return [{ type: 'SavFileFetchFailed', data: { savId, fileId, fileName: fetch.fileName, attempt, reason, error, nextAttemptAt, failedAt: at } }];
};
