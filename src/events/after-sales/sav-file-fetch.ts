import type { z } from 'zod';
import { Refusal } from '../decider.ts';
import type { SavEvent, savFileFetchFailure } from './events.ts';
import type { SavFileKind, SavRefusalCode, SavState } from './sav-decider.ts';

/**
 * The outbox of the files given by URL: a link attached to a SAV (SavFileAttached without a stored
 * path) is owed a fetch. The fetch job records each attempt's outcome on the SAV's stream, so a file is
 * stored once, and a failing host is retried with a growing delay, then given up.
 */

export type SavFileFetchFailure = z.infer<typeof savFileFetchFailure>;

/** After this many failed attempts the file is given up: 1 + 2 + 4 + ... minutes, about two hours in all. */
export const maxSavFileFetchAttempts = 8;

/** Failures a retry cannot mend: the address policy refuses the host, the file is too large or not an image or video. */
const finalFailures: ReadonlySet<SavFileFetchFailure> = new Set(['url_refused', 'too_large', 'unsupported_type']);

const minute = 60_000;
const maxDelay = 60 * minute;

/** Delay before the attempt after failed attempt `attempt` (1-based): 1 min, 2, 4, 8 ... capped at 1 h. */
export const nextFetchDelay = (attempt: number): number => Math.min(maxDelay, minute * 2 ** Math.min(6, Math.max(0, Math.floor(attempt) - 1)));

export type SavFileFetch = {
  sourceUrl: string;
  fileName: string;
  /** `failed`: given up, never tried again. */
  status: 'pending' | 'stored' | 'failed';
  /** Attempts made so far. */
  attempts: number;
  /** When the job should try (again); null once stored or failed. */
  nextAttemptAt: string | null;
};

export type RecordSavFileFetched = {
  type: 'RecordSavFileFetched';
  fileId: string;
  attempt: number;
  kind: SavFileKind;
  storedPath: string;
  contentType: string;
  size: number;
  at: string;
};

export type RecordSavFileFetchFailed = {
  type: 'RecordSavFileFetchFailed';
  fileId: string;
  attempt: number;
  reason: SavFileFetchFailure;
  error: string;
  /** The retry time after the back-off; the decider drops it when the failure is final. */
  nextAttemptAt: string;
  at: string;
};

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

/** The fetches owed after one more event of the SAV. */
export const evolveFetches = (fetches: ReadonlyMap<string, SavFileFetch>, event: SavEvent): ReadonlyMap<string, SavFileFetch> => {
  const next = new Map(fetches);
  if (event.type === 'SavFileAttached') {
    const { fileId, sourceUrl, storedPath, fileName, attachedAt } = event.data;
    // A link is due at once; a file stored with its request (or by an upload) owes nothing.
    if (storedPath === null && sourceUrl !== null) next.set(fileId, { sourceUrl, fileName, status: 'pending', attempts: 0, nextAttemptAt: attachedAt });
  } else if (event.type === 'SavFileFetched') {
    const fetch = fetches.get(event.data.fileId);
    if (fetch) next.set(event.data.fileId, { ...fetch, status: 'stored', attempts: event.data.attempt, nextAttemptAt: null });
  } else if (event.type === 'SavFileFetchFailed') {
    const fetch = fetches.get(event.data.fileId);
    const { attempt, nextAttemptAt } = event.data;
    if (fetch)
      next.set(event.data.fileId, {
        ...fetch,
        status: nextAttemptAt === null ? 'failed' : 'pending',
        attempts: Math.max(fetch.attempts, attempt),
        nextAttemptAt,
      });
  }
  return next;
};
