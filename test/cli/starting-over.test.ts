import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.ts';
import { projectRoot, serviceArguments } from '../support/service-command.ts';
import { freeLoopbackPort } from '../support/smtp-test-server.ts';

/** The server as `npm start` runs it, on DATA_DIR; its output collected. */
const startServer = async (dataDir: string) => {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, serviceArguments(), {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const deadline = Date.now() + 60_000;
  while (!output.includes('"listening: ')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { child, exited, output: () => output };
};

const version = (JSON.parse(await readFile(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** A stack trace's frame, which an operator should never be shown for a setting or a file of theirs. */
const stackFrame = /^\s+at /m;

describe('starting over, and the errors of a data folder, as an operator meets them', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'starting-over-'));
  });
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  it('when the CLI is asked its version, it prints the version of the service', async () => {
    const asked = await runCli(dataDir, ['--version']);
    expect({ code: asked.code, stdout: asked.stdout }).toEqual({ code: 0, stdout: `${version}\n` });
  });

  it('when DATA_DIR is a file, the CLI and the server each refuse in one line naming DATA_DIR, exit 2', { timeout: 60_000 }, async () => {
    const file = path.join(dataDir, 'not-a-folder');
    await writeFile(file, 'x');
    const expected = `Invalid configuration: DATA_DIR=${file}: a file, not a folder; point DATA_DIR at a folder (created if missing)\n`;

    const cli = await runCli(file, ['token', 'list']);
    expect({ code: cli.code, stderr: cli.stderr }).toEqual({ code: 2, stderr: expected });

    const server = spawn(process.execPath, serviceArguments(), {
      cwd: projectRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: file, PORT: String(await freeLoopbackPort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(server, 'exit');
    expect({ code, stderr }).toEqual({ code: 2, stderr: `Failed to start: ${expected}` });
  });

  it(
    'when read-models.sqlite is deleted under a running server, the server says so and stops; reset refuses while it runs and rebuilds once it is stopped',
    { timeout: 120_000 },
    async () => {
      const issued = await runCli(dataDir, ['token', 'issue', '--group', 'supplier-a', '--label', 'Avant la remise à zéro']);
      const tokenId = issued.stdout.trimEnd().split('\n').at(-1)!.split('.')[0]!;
      const server = await startServer(dataDir);

      const refused = await runCli(dataDir, ['projections', 'reset']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`projections reset: a process runs on DATA_DIR=${dataDir} (pid ${server.child.pid}`);
      expect(refused.stderr).not.toMatch(stackFrame);

      await rm(path.join(dataDir, 'read-models.sqlite'));
      const [code] = await server.exited;
      expect(code).toBe(1);
      expect(server.output()).toContain('read-models.sqlite was deleted while the server ran: stopping');

      const reset = await runCli(dataDir, ['projections', 'reset']);
      expect(reset.code).toBe(0);
      expect(reset.stdout).toMatch(/^Read models reset: rebuilt from the log in \d+\.\d s$/m);
      // Off a terminal, the progress bar is a line at the start and one at the end: percentage, count, rate, time left.
      const bar = reset.stderr.trimEnd().split('\n');
      expect(bar[0]).toMatch(/^reset \S+ 0% \| 0\/(\d+) events \| … events\/s \| time left …$/);
      expect(bar.at(-1)).toMatch(/^reset \S+ 100% \| (\d+)\/\1 events \| (… |[\d,]+ )events\/s \| done$/);
      const listed = await runCli(dataDir, ['token', 'list']);
      expect(listed.stdout.trimEnd().split('\n').slice(1)).toEqual([expect.stringMatching(new RegExp(`^${tokenId}\tsupplier-a\tAvant la remise à zéro\t`))]);
    },
  );

  it(
    'when demo reset is asked, it deletes nothing without --yes; with it, it starts over on a new demo and every earlier token is gone',
    { timeout: 120_000 },
    async () => {
      const before = await runCli(dataDir, ['token', 'list']);
      const refused = await runCli(dataDir, ['demo', 'reset', '--orders', '5']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(new RegExp(`^demo reset: deletes everything under DATA_DIR=${dataDir} \\(\\d+ entries: .*run it again with --yes\n$`));
      expect((await runCli(dataDir, ['token', 'list'])).stdout).toBe(before.stdout);

      const reset = await runCli(dataDir, ['demo', 'reset', '--yes', '--orders', '5', '--until', '2026-11-01']);
      expect(reset.code).toBe(0);
      expect(reset.stdout).toMatch(/^Deleted \d+ entries under /);
      expect(reset.stdout).toMatch(/^Seeded in \d+\.\d s: \d+ products, 5 orders imported/m);
      expect((await runCli(dataDir, ['token', 'list'])).stdout).toBe('ID\tGROUP\tLABEL\tISSUED AT\tSTATUS\n');
    },
  );
});
