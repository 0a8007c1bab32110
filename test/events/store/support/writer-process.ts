import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./append-loop.ts', import.meta.url));
const projectRoot = fileURLToPath(new URL('../../../../', import.meta.url));

export type WriterProcess = {
  /** Ids the writer printed, i.e. whose append had been acknowledged. */
  readonly acks: readonly string[];
  waitForAcks(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code, or the signal that ended the process, once its output is read. */
  readonly exited: Promise<number | NodeJS.Signals>;
  kill(signal: NodeJS.Signals): void;
};

export type WriterOptions = {
  /** Events to write before exiting; omitted: until killed. */
  count?: number;
  /** Appends in flight at once, each chain on a stream of its own (see append-loop.ts). Default 1. */
  inFlight?: number;
};

/** Starts `append-loop.ts` in its own Node process, writing to `file`. */
export function startWriter(file: string, stream: string, options: WriterOptions = {}): WriterProcess {
  const args = ['--import', 'tsx', script, file, stream];
  if (options.count !== undefined) args.push('--count', String(options.count));
  if (options.inFlight !== undefined) args.push('--in-flight', String(options.inFlight));
  const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const acks: string[] = [];
  let pending = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    acks.push(...lines.filter((line) => line !== ''));
    for (const listener of [...listeners]) listener();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | NodeJS.Signals>((resolve) => {
    // 'close', not 'exit': it comes after stdout is drained, so `acks` is complete.
    child.on('close', (code, signal) => {
      for (const listener of [...listeners]) listener();
      resolve(signal ?? code ?? -1);
    });
  });

  const waitForAcks = (count: number, timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (acks.length >= count) done(resolve);
        else if (child.exitCode !== null || child.signalCode !== null) done(() => reject(new Error(`The writer exited after ${acks.length} acks: ${stderr}`)));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`Only ${acks.length} of ${count} acks in time: ${stderr}`))), timeoutMs);
      const done = (settle: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        settle();
      };
      listeners.add(check);
      check();
    });

  return { acks, waitForAcks, exited, kill: (signal) => child.kill(signal) };
}
