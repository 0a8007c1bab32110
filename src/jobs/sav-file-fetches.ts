import { cronContext } from '../events/command-context.ts';
import { ConcurrencyConflictError } from '../events/command-handler.ts';
import { dueSavFileFetch, recordSavFileFetched, recordSavFileFetchFailed, type DueFetch } from '../events/after-sales/sav-file-fetch-handlers.ts';
import { RemoteFileError } from '../files/remote-file-error.ts';
import type { SafeFetchOptions } from '../files/safe-fetch.ts';
import { discardSavFile, fetchSavFile, type StoredSavFile } from '../files/sav-files.ts';
import { dueSavFiles, type DueSavFile } from '../projections/after-sales/queries.ts';
import type { JobRuntime } from './job-runtime.ts';

/**
 * The outbox of the SAV files given by URL: each run fetches the files whose fetch is due, with the
 * guarded fetcher of the uploads (src/files/safe-fetch.ts), into the SAV's folder, and records the
 * outcome on the SAV's stream: SavFileFetched, or SavFileFetchFailed with the back-off of the next
 * attempt (given up after the last attempt, or at once when no retry can help).
 *
 * The read model only proposes candidates; each is checked against its stream just before it is
 * fetched, and the outcome is decided again against the stream when it is recorded, so a lagging or
 * rebuilding read model never stores a file twice. The job runs in one process (the server); a second
 * process would at worst fetch a file twice, the second copy being discarded when its record changes nothing.
 */

export type SavFileFetchOptions = {
  /** How files are fetched; tests narrow the limits, or exempt their loopback server and resolve their host names. */
  fetch?: Partial<SafeFetchOptions>;
  /** Files tried per run (default 20), at most `concurrency` at once (default 3). */
  batch?: number;
  concurrency?: number;
  /** Aborted when the service stops: fetches in flight are broken off and their attempt is not counted. */
  signal?: AbortSignal;
};

export type SavFileFetchRun =
  /** Another run on the same runtime was still going: this one did nothing. */
  | { status: 'busy' }
  /** File IDs; `skipped`: proposed by the read model but no longer due according to the stream. */
  | { status: 'completed'; stored: string[]; failed: string[]; skipped: string[] };

const defaults: SafeFetchOptions = { maxBytes: 50 * 1024 * 1024, timeoutMs: 60_000, maxRedirects: 3 };

type Outcome = 'stored' | 'failed' | 'skipped';

const recordFailure = async (runtime: JobRuntime, due: DueFetch, error: RemoteFileError): Promise<Outcome> => {
  const { savId, fileId, attempt } = due;
  const outcome = await recordSavFileFetchFailed(runtime.write, { savId, fileId, attempt, reason: error.code, error: error.message }, cronContext());
  runtime.log.warn({ savId, fileId, attempt, reason: error.code, error: error.message }, 'SAV file not fetched');
  return outcome.status === 'recorded' ? 'failed' : 'skipped';
};

const recordStored = async (runtime: JobRuntime, due: DueFetch, file: StoredSavFile): Promise<Outcome> => {
  const { savId, fileId, attempt } = due;
  const { kind, storedPath, contentType, size } = file;
  const { dataDir } = runtime.config;
  let recorded: boolean;
  try {
    const outcome = await recordSavFileFetched(runtime.write, { savId, fileId, attempt, kind, storedPath, contentType, size }, cronContext());
    recorded = outcome.status === 'recorded';
  } catch (error) {
    // Only a lost race is sure to have recorded nothing; otherwise the copy is kept, in case the event was written.
    if (error instanceof ConcurrencyConflictError) await discardSavFile(dataDir, storedPath);
    throw error;
  }
  // Stored meanwhile by another run: this copy is not named by any event.
  if (!recorded) await discardSavFile(dataDir, storedPath);
  else runtime.log.info({ savId, fileId, attempt, size, contentType }, 'SAV file fetched');
  return recorded ? 'stored' : 'skipped';
};

const fetchOne = async (runtime: JobRuntime, candidate: DueSavFile, options: SafeFetchOptions): Promise<Outcome> => {
  const due = await dueSavFileFetch(runtime.write, candidate.savId, candidate.fileId, runtime.clock.now());
  if (due === null) return 'skipped';
  let file: StoredSavFile;
  try {
    file = await fetchSavFile(runtime.config.dataDir, { savId: due.savId, url: due.sourceUrl, fileName: due.fileName }, options);
  } catch (error) {
    // Broken off by the service stopping: not the file's failure; it stays due.
    if (options.signal?.aborted) return 'skipped';
    if (error instanceof RemoteFileError) return recordFailure(runtime, due, error);
    // The service's own fault (a disk error): not the file's attempt; tried again at the next run.
    throw error;
  }
  return recordStored(runtime, due, file);
};

const fetchDueFiles = async (runtime: JobRuntime, options: SavFileFetchOptions): Promise<Extract<SavFileFetchRun, { status: 'completed' }>> => {
  const fetchOptions: SafeFetchOptions = { ...defaults, ...options.fetch, ...(options.signal && { signal: options.signal }) };
  const queue = await dueSavFiles(runtime.readStore, runtime.clock.now().toISOString(), options.batch ?? 20);
  const run = { status: 'completed' as const, stored: [] as string[], failed: [] as string[], skipped: [] as string[] };
  const worker = async (): Promise<void> => {
    for (let candidate = queue.shift(); candidate && runtime.isOpen() && !options.signal?.aborted; candidate = queue.shift()) {
      try {
        run[await fetchOne(runtime, candidate, fetchOptions)].push(candidate.fileId);
      } catch (error) {
        runtime.log.error({ err: error, savId: candidate.savId, fileId: candidate.fileId }, 'SAV file fetch failed; tried again at the next run');
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 3 }, worker));
  return run;
};

const running = new WeakSet<JobRuntime>();

/** One run of the job. Runs on one runtime never overlap: a run started while another is going answers `busy` at once. */
export const runSavFileFetchesOnce = async (runtime: JobRuntime, options: SavFileFetchOptions = {}): Promise<SavFileFetchRun> => {
  if (running.has(runtime)) return { status: 'busy' };
  running.add(runtime);
  try {
    const run = await fetchDueFiles(runtime, options);
    // What the run recorded is in the read models when it ends: the next run is not offered these files again.
    if (run.stored.length + run.failed.length > 0) await runtime.projections.waitFor(await runtime.eventStore.headPosition());
    return run;
  } finally {
    running.delete(runtime);
  }
};
