import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../support/free-port.ts';
import { serviceArguments } from '../support/service-command.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** `npm start` as a process of its own, its output collected. */
const startServer = (dataDir: string, port: number) => {
  const child = spawn(process.execPath, serviceArguments(), {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString('utf8')));
  return { child, output, exited: once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]> };
};

describe('npm start on a port already taken', () => {
  let root: string;
  let port: number;
  let first: ReturnType<typeof startServer>;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'busy-port-'));
    port = await freeLoopbackPort();
    first = startServer(path.join(root, 'first'), port);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const live = await fetch(`http://127.0.0.1:${port}/health/live`).then(
        (response) => response.status,
        () => undefined,
      );
      if (live === 200) break;
      if (Date.now() > deadline || first.child.exitCode !== null) throw new Error(`the first server did not start: ${first.output.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 90_000);
  afterAll(async () => {
    if (first.child.exitCode === null) {
      first.child.kill('SIGTERM');
      await first.exited;
    }
    await rm(root, { recursive: true, force: true });
  });

  it('when a second instance starts on the same port, it says so in one line and exits 2 without opening its stores', { timeout: 60_000 }, async () => {
    const secondDir = path.join(root, 'second');
    const second = startServer(secondDir, port);

    const [code] = await second.exited;

    expect(code).toBe(2);
    expect(second.output.stderr).toBe(`Failed to start: port ${port} is already in use (another instance running? set PORT)\n`);
    expect(second.output.stdout).toBe('');
    // Nothing opened, nothing replayed: its data directory was not even created.
    expect(existsSync(secondDir)).toBe(false);
    // The first one is still serving.
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
    expect(await readdir(path.join(root, 'first'))).toContain('events.sqlite');
  });
});
