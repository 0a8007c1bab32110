import { startWorker } from '../src/concurrency/worker-entry.ts';
import type { LoadRequest, LoadResult } from './http-load.ts';

/**
 * A steady load (the same request back to back, `runLoad`'s way) from a thread of its own. A bench
 * that also receives the service's webhooks in its process (TLS, parsing, at hundreds a second) would
 * otherwise time each answer late by whatever its receiver was doing when the answer came: the
 * latency measured would be the bench's, not the service's.
 */
export type SteadyLoad = { origin: string; request: LoadRequest; connections: number; seconds: number };

export const runSteadyLoadInThread = (load: SteadyLoad): Promise<LoadResult> =>
  new Promise((resolve, reject) => {
    const worker = startWorker(new URL('./http-load-worker.ts', import.meta.url), { workerData: load });
    worker.once('message', (result: LoadResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the load thread ended (${code}) without a result`)));
  });
