import { parentPort, workerData } from 'node:worker_threads';
import { runLoad } from './http-load.ts';
import type { SteadyLoad } from './http-load-thread.ts';

/** The thread of `runSteadyLoadInThread`: one run, its result posted back. */
const { origin, request, connections, seconds } = workerData as SteadyLoad;
void runLoad({ origin, next: () => request, connections, seconds }).then((result) => parentPort!.postMessage(result));
