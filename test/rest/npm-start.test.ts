import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../support/free-port.ts';
import { projectRoot } from '../support/service-command.ts';

/**
 * The README's first command, as typed: `npm start` (its prestart bundles the service, then npm's
 * shell execs node), stopped the way a terminal or a process manager stops it, by signalling npm.
 */
describe('npm start', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'npm-start-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('when npm is sent SIGTERM, the service stops cleanly with it, and nothing keeps serving', { timeout: 90_000 }, async () => {
    const port = await freeLoopbackPort();
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    npm.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    npm.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = once(npm, 'exit');
    const health = () =>
      fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (response) => response.status,
        () => undefined,
      );
    const deadline = Date.now() + 60_000;
    while ((await health()) !== 200) {
      if (Date.now() > deadline || npm.exitCode !== null) throw new Error(`npm start did not serve: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const served = await fetch(`http://127.0.0.1:${port}/api/supplier-a/get-sales`);
    expect(served.status).toBe(401);

    npm.kill('SIGTERM');
    await exited;

    // The service got the signal and shut down (its last log line), not left running without npm.
    const lines = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string });
    expect(lines.at(-1)?.msg).toBe('stopped');
    expect(await health()).toBeUndefined();
  });
});
