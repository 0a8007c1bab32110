import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { MongoClient } from 'mongodb';

/**
 * A MongoDB-compatible server for the tests: FerretDB 1.x with its SQLite backend (test/support/ferretdb),
 * on a loopback port the system picks, with its databases in a scratch directory. SQLite does not fsync
 * (`-synchronous off`): the data is scratch, and a killed server process still keeps its writes.
 */

const here = fileURLToPath(new URL('.', import.meta.url));
const buildScript = join(here, 'ferretdb', 'build.sh');
const binary = join(here, '..', '..', '.cache', 'ferretdb', 'ferretdb');

export type FerretDb = {
  /** `mongodb://127.0.0.1:<port>/` */
  url: string;
  port: number;
  dataDir: string;
  /**
   * Stops the server, as a crash does (SIGKILL: SQLite keeps what a killed process wrote, and FerretDB
   * given SIGTERM takes 2 to 5 s to wind down); removes the data directory unless it was given (so a
   * restart can reuse it).
   */
  stop(): Promise<void>;
};

export type FerretDbOptions = {
  /** Reuse this directory (e.g. to restart a stopped server with its data); default: a fresh temp dir. */
  dataDir?: string;
  /** Listen on this port (e.g. to restart on the same URL); default: any free port. */
  port?: number;
  /** How long to wait for the server to answer a ping. */
  readyTimeoutMs?: number;
};

/** Builds the binary unless it is already built from the same sources (quick then). */
export const buildFerretDb = async (): Promise<string> => {
  await promisify(execFile)('bash', [buildScript], { maxBuffer: 16 * 1024 * 1024 });
  return binary;
};

export const startFerretDb = async (options: FerretDbOptions = {}): Promise<FerretDb> => {
  await buildFerretDb();
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'ferretdb-')));
  const child = spawn(binary, ['-listen', `127.0.0.1:${options.port ?? 0}`, '-dir', dataDir, '-synchronous', 'off'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = once(child, 'exit');
  // A server still running when the test process ends (a spec that did not stop it, a worker torn down)
  // goes with it, rather than run on with its parent gone. vitest ends its workers with SIGTERM, whose
  // default action skips the `exit` handlers: while a server runs, SIGTERM exits the process instead.
  const atProcessExit = () => {
    child.kill('SIGKILL');
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const atSigterm = () => process.exit(143);
  process.once('exit', atProcessExit);
  process.once('SIGTERM', atSigterm);

  const cleanup = async () => {
    process.removeListener('exit', atProcessExit);
    process.removeListener('SIGTERM', atSigterm);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
  };

  try {
    // The server prints its connection string once its listener is bound.
    const firstLine = new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      void exited.then(([code]) => reject(new Error(`ferretdb exited (${String(code)}) before listening: ${stderr}`)));
    });
    const url = await firstLine;
    await waitForPing(url, options.readyTimeoutMs ?? 30_000);
    return { url, port: Number(new URL(url).port), dataDir, stop: cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
};

const waitForPing = async (url: string, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 1000 });
    try {
      await client.connect();
      await client.db('admin').command({ ping: 1 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`ferretdb at ${url} did not answer a ping within ${timeoutMs} ms`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.close();
    }
  }
};
