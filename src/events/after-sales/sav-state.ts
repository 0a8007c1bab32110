import type { z } from 'zod';
import { assertNever } from '../decider.ts';
import type { SavEvent, savStatusValues } from './events.ts';

/** A SAV as its stream tells it: what its decider, and the handlers that need it, read. */

/** The SAV statuses; `in_progress` (the interface's value) as long as it is open. See sav-transitions.ts. */
export type SavStatus = z.infer<typeof savStatusValues>;
export type SavSlot = { date: string; time: string };

/** A file given by URL, owed a fetch (see sav-file-fetch.ts). */
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

export type ExistingSav = {
  exists: true;
  savId: number;
  saleId: number;
  saleProductIds: readonly number[];
  status: SavStatus;
  /** The planning place the SAV holds; a past one is kept when the SAV ends. */
  appointment: { date: string; time: string; phone: string | null; comment: string | null } | null;
  /** The place the SAV gave back when it ended (closed or cancelled), until it is reopened. */
  releasedAppointment: SavSlot | null;
  fileIds: ReadonlySet<string>;
  /** The files given by URL and their fetch. */
  fetches: ReadonlyMap<string, SavFileFetch>;
};
export type SavState = { exists: false } | ExistingSav;

export const initialState = (): SavState => ({ exists: false });

export const savStatus = (state: SavState): SavStatus | null => (state.exists ? state.status : null);

/** The fetches owed after one more event of the SAV. */
const evolveFetches = (fetches: ReadonlyMap<string, SavFileFetch>, event: SavEvent): ReadonlyMap<string, SavFileFetch> => {
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

/** A SAV that ends gives back the place it released (none when its day was past: the visit stays as it happened). */
const ended = (state: ExistingSav, status: 'closed' | 'cancelled', released: SavSlot | null): ExistingSav => ({
  ...state,
  status,
  appointment: released ? null : state.appointment,
  releasedAppointment: released,
});

export const evolve = (state: SavState, event: SavEvent): SavState => {
  switch (event.type) {
    case 'SavCreated': {
      const { savId, saleId, saleProductIds } = event.data;
      return {
        exists: true,
        savId,
        saleId,
        saleProductIds,
        status: 'in_progress',
        appointment: null,
        releasedAppointment: null,
        fileIds: new Set(),
        fetches: new Map(),
      };
    }
    case 'SavAppointmentScheduled': {
      if (!state.exists) return state;
      const { date, time, phone, comment } = event.data;
      return { ...state, appointment: { date, time, phone, comment } };
    }
    case 'SavFileAttached':
      return state.exists ? { ...state, fileIds: new Set([...state.fileIds, event.data.fileId]), fetches: evolveFetches(state.fetches, event) } : state;
    case 'SavFileFetched':
    case 'SavFileFetchFailed':
      return state.exists ? { ...state, fetches: evolveFetches(state.fetches, event) } : state;
    case 'SavResolved':
      return state.exists ? { ...state, status: 'resolved' } : state;
    case 'SavClosed':
      return state.exists ? ended(state, 'closed', event.data.releasedAppointment) : state;
    case 'SavReopened':
      return state.exists ? { ...state, status: 'in_progress', releasedAppointment: null } : state;
    case 'SavCancelled':
      return state.exists ? ended(state, 'cancelled', event.data.releasedAppointment) : state;
    default:
      return assertNever(event);
  }
};
