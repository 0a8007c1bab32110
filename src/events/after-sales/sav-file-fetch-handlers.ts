import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, type CommandOutcome, type WriteDeps, type Written } from '../command-handler.ts';
import { fold, type Refusal } from '../decider.ts';
import { readDomainStream } from '../domain-store.ts';
import { savStreamName, type SavEvent } from './events.ts';
import type { SavFileFetchFailure, SavFileKind } from './sav-commands.ts';
import { savDecider } from './sav-decider.ts';
import { isFetchDue, nextFetchDelay } from './sav-file-fetch.ts';
import type { SavFileFetch, SavState } from './sav-state.ts';

/**
 * The fetch job's reads and writes on a SAV's stream. The stream, not the read model, says whether a
 * file is still owed its fetch; each outcome is recorded with the stream's expected revision (decided
 * again on a conflict), so a file is stored once whatever the job's runs or the read model's lag.
 */

export type DueFetch = SavFileFetch & { savId: number; fileId: string; attempt: number };

/** The file's fetch as the SAV's events say, if it is due at `now`; null when stored, given up, not yet due or unknown. */
export const dueSavFileFetch = async (deps: Pick<WriteDeps, 'eventStore'>, savId: number, fileId: string, now: Date): Promise<DueFetch | null> => {
  const { events } = await readDomainStream<SavEvent>(deps.eventStore, savStreamName(savId));
  const state = fold(savDecider, events);
  const fetch = state.exists ? state.fetches.get(fileId) : undefined;
  return isFetchDue(fetch, now) ? { ...fetch, savId, fileId, attempt: fetch.attempts + 1 } : null;
};

/** `unchanged`: the file was already stored or given up (by another run): the caller discards its copy. */
export type FetchOutcome = { status: 'recorded' | 'unchanged'; written?: Written } | { status: 'refused'; refusal: Refusal };

const outcomeOf = (outcome: CommandOutcome<SavState, SavEvent>): FetchOutcome =>
  outcome.status === 'refused'
    ? { status: 'refused', refusal: outcome.refusal }
    : { status: outcome.status === 'accepted' ? 'recorded' : 'unchanged', written: writtenBy(outcome) };

export const recordSavFileFetched = async (
  deps: WriteDeps,
  input: { savId: number; fileId: string; attempt: number; kind: SavFileKind; storedPath: string; contentType: string; size: number },
  context: CommandContext,
): Promise<FetchOutcome> => {
  const { savId, ...fetched } = input;
  const command = { type: 'RecordSavFileFetched' as const, ...fetched, at: deps.clock.now().toISOString() };
  return outcomeOf(await handleCommand(deps, savStreamName(savId), savDecider, command, context));
};

/** The recorded error text is bounded; the full error belongs in the logs. */
const maxErrorLength = 2000;

/** Records a failed attempt with the time of the next one after the back-off (the decider drops it when the failure is final). */
export const recordSavFileFetchFailed = async (
  deps: WriteDeps,
  input: { savId: number; fileId: string; attempt: number; reason: SavFileFetchFailure; error: string },
  context: CommandContext,
): Promise<FetchOutcome> => {
  const now = deps.clock.now();
  const command = {
    type: 'RecordSavFileFetchFailed' as const,
    fileId: input.fileId,
    attempt: input.attempt,
    reason: input.reason,
    error: input.error.slice(0, maxErrorLength),
    nextAttemptAt: new Date(now.getTime() + nextFetchDelay(input.attempt)).toISOString(),
    at: now.toISOString(),
  };
  return outcomeOf(await handleCommand(deps, savStreamName(input.savId), savDecider, command, context));
};
