import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Where the entry module of a worker thread is, and how a thread loads it. Under `npm start` the
 * service runs bundled (dist/main.mjs, build.mjs), each worker's entry an entry of the bundle of its
 * own, at its root, as JavaScript. Run from its sources (vitest, `npm run dev`, the CLI), a worker runs
 * them too: through tsx, since neither vitest's transform nor the parent's module hooks reach worker
 * threads. Bundled, this module may sit in a chunk shared by the service and the CLI (dist/chunks/).
 */

const bundled = import.meta.url.endsWith('.mjs');
const bundleRoot = new URL(import.meta.url.includes('/dist/chunks/') ? '../' : './', import.meta.url);

/** The entry: `source` (beside its caller, `new URL('./x-worker.ts', import.meta.url)`) from the sources, `<name>.mjs` at the bundle's root when bundled. */
export const workerEntry = (source: URL, name: string): URL => (bundled ? new URL(`${name}.mjs`, bundleRoot) : source);

/** The `execArgv` of a thread running `entry`: tsx's loader for TypeScript. */
export const loaderArguments = (entry: URL): string[] =>
  entry.pathname.endsWith('.ts') ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];

/**
 * A plain worker thread running `entry`. From the sources its thread registers tsx's hook of
 * `require` and requires the entry: a thread's first module is loaded before the hooks of import that
 * `--import tsx` registers are in place (piscina, which imports its workers' modules later, needs no such help).
 */
export const startWorker = (entry: URL, options: Omit<WorkerOptions, 'eval' | 'execArgv'> = {}): Worker => {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { ...options, execArgv: [] });
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  return new Worker(`require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(fileURLToPath(entry))});`, { ...options, eval: true, execArgv: [] });
};
