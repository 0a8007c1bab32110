import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freeLoopbackPort } from '../test/support/free-port.ts';
import { projectRoot, serviceArguments } from '../test/support/service-command.ts';
import { tallyOf, type LogTally } from './server-log.ts';

/**
 * The service under test as `npm start` runs it: a process of its own on DATA_DIR, on a loopback port,
 * its JSON log lines tallied. Its figures are its own: the load generator runs in the benchmark's
 * process, and the peak resident memory is read from the kernel for the server's process alone.
 */

/** Builds the bundle `npm start` runs (its prestart), once per benchmark process. */
let built = false;
const buildService = (): void => {
  if (!built) execFileSync(process.execPath, ['build.mjs'], { cwd: projectRoot, stdio: 'inherit' });
  built = true;
};

export type ServerProcess = {
  origin: string;
  pid: number;
  log: LogTally;
  /** From the start of the process until /health answered 200. */
  readyMs: number;
  /** The process's peak resident memory so far (VmHWM), in MiB. */
  peakRssMiB: () => number;
  /** The process's resident memory now (VmRSS), in MiB; 0 once it is gone. */
  rssMiB: () => number;
  stop: () => Promise<void>;
};

/** Starts the service as `npm start` does and resolves once /health answers 200 (its read models caught up). */
export const startServerProcess = async (dataDir: string, env: Record<string, string> = {}, readyTimeoutMs = 30 * 60_000): Promise<ServerProcess> => {
  const port = await freeLoopbackPort();
  const startedAt = performance.now();
  // BENCH_CPU_PROFILE=<folder>: the server writes a V8 CPU profile of its run there when it stops.
  const profile = process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROFILE)}`] : [];
  // PDF_WORKERS, when set, sizes the server's PDF renderers (else the server's default).
  const pdfWorkers = process.env.PDF_WORKERS ? { PDF_WORKERS: process.env.PDF_WORKERS } : {};
  buildService();
  const child = spawn(process.execPath, [...profile, ...serviceArguments()], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...pdfWorkers, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = tallyOf();
  createInterface({ input: child.stdout! }).on('line', log.take);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${stderr.slice(-2000)}`);
    if (Date.now() > deadline) throw new Error('the server did not get ready in time');
    const status = await fetch(`${origin}/health`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const readyMs = performance.now() - startedAt;
  const pid = child.pid!;
  /** A memory figure of the process's status (VmHWM: its peak, VmRSS: now), in MiB; undefined once it is gone. */
  const memoryMiB = (field: 'VmHWM' | 'VmRSS'): number | undefined => {
    try {
      const line = readFileSync(`/proc/${pid}/status`, 'utf8')
        .split('\n')
        .find((entry) => entry.startsWith(`${field}:`));
      return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
    } catch {
      return undefined;
    }
  };
  let lastPeak = 0;
  // Gone: the last reading stands.
  const peakRssMiB = (): number => (lastPeak = memoryMiB('VmHWM') ?? lastPeak);
  return {
    origin,
    pid,
    log,
    readyMs,
    peakRssMiB,
    rssMiB: () => memoryMiB('VmRSS') ?? 0,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      peakRssMiB();
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
};
