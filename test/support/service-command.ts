import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from './eventually.ts';
import { freeLoopbackPort } from './free-port.ts';

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

/** A server process of the specs: its origin, and how to kill it as a crash would. */
export type ServiceProcess = {
  origin: string;
  child: ChildProcess;
  /** SIGKILL, and resolves once the process is gone: nothing flushed, nothing closed. */
  kill: () => Promise<void>;
};

/**
 * The service as `npm start` runs it, on `dataDir`, on a free loopback port, with only `env` beside
 * PATH and HOME; resolves once `/health/ready` answers 200 (its read models caught up, its jobs
 * started). Its stderr goes to the spec's.
 */
export const startServiceProcess = async (dataDir: string, env: Record<string, string> = {}, readyTimeoutMs = 60_000): Promise<ServiceProcess> => {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, serviceArguments(), {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}) before it was ready`);
    return fetch(`${origin}/health/ready`).then(
      (answer) => answer.ok,
      () => false,
    );
  }, readyTimeoutMs);
  return {
    origin,
    child,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
};
