import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { freeLoopbackPort } from '../support/free-port.ts';
import { projectRoot, serviceArguments } from '../support/service-command.ts';

// The tracing specs' server: `npm start` with its tracing preload, as a process of its own.

export const run = promisify(execFile);
export const SERVER = 2; // OTLP's SPAN_KIND_SERVER
export const CLIENT = 3;

/** `npm start`'s arguments with one more preload, before the service's module (the last argument). */
const startArgumentsWith = (preload: string): string[] => {
  const args = serviceArguments();
  return [...args.slice(0, -1), '--import', preload, args.at(-1)!];
};

/**
 * `npm start` as a process of its own (its bundle with the tracing preload), plus a probe that lists
 * the modules it loaded; SIGTERM stops it as an orchestrator would.
 */
export const startServer = async (dataDir: string, env: Record<string, string>) => {
  const port = await freeLoopbackPort();
  const loadedModulesFile = path.join(dataDir, `loaded-modules-${port}.json`);
  const child = spawn(process.execPath, startArgumentsWith('./test/tracing/loaded-modules-probe.mjs'), {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      LOADED_MODULES_FILE: loadedModulesFile,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.resume();
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${url}/health/ready`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the server did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    /** SIGTERM, then the exit code and the CommonJS modules the process had loaded. */
    stop: async () => {
      child.kill('SIGTERM');
      const [code] = await exited;
      return { code, stderr, loadedModules: JSON.parse(await readFile(loadedModulesFile, 'utf8')) as string[] };
    },
    kill: () => child.exitCode === null && child.kill('SIGKILL'),
  };
};

/**
 * The SDK, exporters, instrumentations and module hooks. Not `@opentelemetry/api`, the no-op facade:
 * prom-client loads it for its exemplars whether tracing is on or not.
 */
export const openTelemetryModules = (files: string[]) =>
  files.filter((file) => /node_modules\/(@opentelemetry\/(?!api\/)|import-in-the-middle\/|require-in-the-middle\/)/.test(file));

export type TracedServer = Awaited<ReturnType<typeof startServer>>;
