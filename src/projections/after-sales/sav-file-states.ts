import type { EventOfType } from '../../events/registry.ts';
import { disclosedReason } from '../../files/remote-file-error.ts';
import type { SavFileDocument } from './sav-document.ts';

/** The files of a SAV document, as their fetch goes: attached (a link is pending), fetched, failed. */

const utcInstant = (instant: string): string => new Date(instant).toISOString();

export const attachedFile = (data: EventOfType<'SavFileAttached'>['data']): SavFileDocument => {
  const { savId: _savId, ...file } = data;
  const pending = file.storedPath === null && file.sourceUrl !== null;
  return { ...file, state: pending ? 'pending' : 'stored', attempts: 0, lastError: null, nextAttemptAt: pending ? utcInstant(file.attachedAt) : null };
};

export const fetchedFile = (file: SavFileDocument, data: EventOfType<'SavFileFetched'>['data']): SavFileDocument => {
  const { kind, storedPath, contentType, size, attempt } = data;
  return { ...file, kind, storedPath, contentType, size, state: 'stored', attempts: attempt, lastError: null, nextAttemptAt: null };
};

export const failedFile = (file: SavFileDocument, data: EventOfType<'SavFileFetchFailed'>['data']): SavFileDocument => {
  const { attempt, reason, error, nextAttemptAt } = data;
  const next = nextAttemptAt === null ? null : utcInstant(nextAttemptAt);
  // The read model serves the core, chatbot and GraphQL answers: a refused URL's reason stays in the log.
  return { ...file, state: next === null ? 'failed' : 'pending', attempts: attempt, lastError: disclosedReason(reason, error), nextAttemptAt: next };
};
