import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The service as `npm start` runs it: the arguments it gives node, read from package.json so that the
 * specs and benchmarks that start a server process run what ships (the bundle in dist/, built by
 * `npm start`'s prestart, and by test/support/build-service.ts before the specs).
 */

export const projectRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

export const serviceArguments = (): string[] => {
  const start = (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  // `exec node ...`: the shell npm runs the script in becomes node, so that npm's SIGTERM reaches it.
  const [exec, command, ...args] = start.split(/\s+/);
  if (exec !== 'exec' || command !== 'node') throw new Error(`npm start is expected to exec node, not: ${start}`);
  return args;
};

/**
 * The CLI as `npm run cli` runs it: its bundle (dist/cli.mjs, built with the service's), with these
 * arguments; spawned with `process.execPath`.
 */
export const cliArguments = (...args: string[]): string[] => ['--enable-source-maps', path.join(projectRoot, 'dist', 'cli.mjs'), ...args];
