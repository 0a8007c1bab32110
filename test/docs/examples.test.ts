import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../support/free-port.ts';
import { runnableExamples, type Example } from './markdown-examples.ts';
import { serviceArguments, cliArguments } from '../support/service-command.ts';

/**
 * The README and every page of docs/ run as written, on the data their examples name: a fresh DATA_DIR
 * seeded with `demo seed --until 2026-11-01` (deterministic), the server started as `npm start` starts
 * it, then each file's ```bash blocks in order in one `bash -euo pipefail` process, so that the blocks of
 * a file share their variables (the tokens of the first block) as they do in a reader's terminal.
 *
 * A block fails when it exits non-zero (the examples call `curl --fail-with-body`), and also when its
 * output holds `"success":false` (answers of the supplier API that refuse with a 200) or a GraphQL
 * `"errors":[` array (GraphQL answers its errors with a 200).
 */
const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const documents = async () => [
  'README.md',
  ...(await readdir(path.join(root, 'docs')))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** 3000 when nothing listens there (the examples then run byte for byte as written), else any free port. */
const portForTheExamples = (): Promise<number> =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(freeLoopbackPort()));
    probe.listen(3000, () => probe.close(() => resolve(3000)));
  });

type BlockRun = { example: Example; output: string };

/** Runs a file's examples in one bash process; the marker lines split its output by block. */
const runExamples = async (examples: Example[], env: Record<string, string>, scratch: string): Promise<{ code: number | null; blocks: BlockRun[] }> => {
  const marker = `@@example-${process.pid}-${Date.now()}@@`;
  const driver = ['exec 2>&1', `cd ${JSON.stringify(root)}`];
  for (const [index, example] of examples.entries()) {
    const file = path.join(scratch, `block-${index}.sh`);
    await writeFile(file, `${example.code}\n`);
    driver.push(`printf '\\n%s %d\\n' '${marker}' ${index}`, `source ${JSON.stringify(file)}`);
  }
  const driverFile = path.join(scratch, 'driver.sh');
  await writeFile(driverFile, `${driver.join('\n')}\n`);
  const child = spawn('bash', ['-euo', 'pipefail', driverFile], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  const blocks: BlockRun[] = [];
  for (const part of output.split(`\n${marker} `).slice(1)) {
    const newline = part.indexOf('\n');
    blocks.push({ example: examples[Number(part.slice(0, newline))]!, output: part.slice(newline + 1) });
  }
  return { code, blocks };
};

const describeFailure = (file: string, block: BlockRun, why: string) =>
  `${file}, the block at line ${block.example.line} ${why}:\n--- block ---\n${block.example.code}\n--- output ---\n${block.output}`;

const files = await documents();

describe('the examples of the README and of docs/', () => {
  let dataDir: string;
  let server: ChildProcess;
  let port: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'doc-examples-'));
    await run(process.execPath, cliArguments('demo', 'seed', '--until', '2026-11-01'), {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    port = await portForTheExamples();
    server = spawn(process.execPath, serviceArguments(), {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (answer) => answer.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline || server.exitCode !== null) throw new Error('the server did not become ready');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 120_000);

  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = once(server, 'exit');
      server.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('when the pages are listed, the README and the docs have runnable examples', async () => {
    expect(files).toContain('README.md');
    expect(files.length).toBeGreaterThan(5);
    const readme = runnableExamples(await readFile(path.join(root, 'README.md'), 'utf8'));
    expect(readme.length).toBeGreaterThan(2);
  });

  // One test per page, each on the data the previous pages left: the pages change different sales.
  it.each(files)('when the examples of %s run in order on the demo data, each exits 0', { timeout: 180_000 }, async (file) => {
    const examples = runnableExamples(await readFile(path.join(root, file), 'utf8'));
    if (examples.length === 0) return;
    const scratch = await mkdtemp(path.join(tmpdir(), 'doc-example-blocks-'));
    try {
      // Only what a reader's shell would give, pointed at the demo data.
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir };
      // The examples say localhost:3000; when another process holds 3000, they are sent to the server's port instead.
      const rewritten = examples.map((example) => ({
        ...example,
        code: port === 3000 ? example.code : example.code.replaceAll('localhost:3000', `localhost:${port}`),
      }));
      const { code, blocks } = await runExamples(rewritten, env, scratch);
      if (code !== 0) {
        const failed = blocks.at(-1);
        throw new Error(failed ? describeFailure(file, failed, `exited ${code}`) : `${file}: bash exited ${code} before the first block`);
      }
      expect(blocks).toHaveLength(examples.length);
      for (const block of blocks) {
        if (block.output.includes('"success":false')) throw new Error(describeFailure(file, block, 'answered "success":false'));
        if (block.output.includes('"errors":[')) throw new Error(describeFailure(file, block, 'answered GraphQL errors'));
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
