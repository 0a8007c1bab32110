import { createRequire } from 'node:module';

/**
 * mingo, loaded the first time a filter, projection, pipeline or update needs it. Its entry point
 * registers every operator it has, about 200 ms of a process's start, and the usual filters and updates
 * never reach it (fast-path.ts, document-update.ts): a CLI command that issues a token or records an
 * event starts without it. The server loads it while it starts (main.ts), not at its first request.
 */
const require = createRequire(import.meta.url);
let library: typeof import('mingo') | undefined;
let updater: typeof import('mingo/updater') | undefined;

export const mingo = (): typeof import('mingo') => (library ??= require('mingo') as typeof import('mingo'));
export const mingoUpdater = (): typeof import('mingo/updater') => (updater ??= require('mingo/updater') as typeof import('mingo/updater'));
