import type { JobRuntime } from './job-runtime.ts';
import { everySecondsPattern, scheduleJob } from './cron-schedule.ts';
import { runSavFileFetchesOnce, type SavFileFetchOptions } from './sav-file-fetches.ts';

/**
 * The SAV file fetch job on a node-cron schedule (every 30 s: retries fall due then), started and
 * stopped with the HTTP service, plus a run on demand as soon as a SAV names a file by URL, so that a
 * reachable file is stored seconds after the request rather than at the next tick.
 */

export type SavFileFetchJob = {
  /** Starts a run now, or one more right after the run in flight. */
  runNow(): void;
  /** No new run starts; resolves once the run in flight, if any, has finished. */
  stop(): Promise<void>;
};

export type SavFileFetchJobOptions = Omit<SavFileFetchOptions, 'signal'> & {
  /** Seconds between runs, 1 to 59 (default 30): see everySecondsPattern. */
  everySeconds?: number;
};

const jobs = new WeakMap<JobRuntime, SavFileFetchJob>();

/** Asks this runtime's job, when one runs (the server), for a run now; elsewhere (the CLI, specs) the files wait for a job. */
export const requestSavFileFetches = (runtime: JobRuntime): void => jobs.get(runtime)?.runNow();

export const startSavFileFetchJob = (runtime: JobRuntime, options: SavFileFetchJobOptions = {}): SavFileFetchJob => {
  const { everySeconds = 30, ...fetchOptions } = options;
  const pattern = everySecondsPattern(everySeconds);
  let current: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const stopping = new AbortController();

  const runWhileAsked = async (): Promise<void> => {
    do {
      again = false;
      // A failed run (the store closing, say) is logged; the next one starts again from the events.
      await runSavFileFetchesOnce(runtime, { ...fetchOptions, signal: stopping.signal }).catch((error: unknown) =>
        runtime.log.error({ err: error }, 'SAV file fetch run failed'),
      );
    } while (again && !stopped && runtime.isOpen());
  };

  const tick = async (): Promise<void> => {
    if (stopped || !runtime.isOpen()) return;
    if (current) {
      again = true;
      return current;
    }
    current = runWhileAsked().finally(() => {
      current = null;
    });
    return current;
  };

  const task = scheduleJob(runtime, 'sav-file-fetches', pattern, tick);

  let stoppedJob: Promise<void> | null = null;
  const job: SavFileFetchJob = {
    runNow: () => void tick(),
    stop: () => {
      stoppedJob ??= (async () => {
        stopped = true;
        jobs.delete(runtime);
        // A slow file host must not hold the shutdown: the fetches in flight are broken off, and stay due.
        stopping.abort();
        await task.destroy();
        await current;
      })();
      return stoppedJob;
    },
  };
  jobs.set(runtime, job);
  return job;
};
