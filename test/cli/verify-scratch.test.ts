import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loaderArguments } from '../../src/concurrency/worker-entry.ts';

/**
 * The scratch copy `projections verify` replays the log into is as large as the read models (5.6 GB
 * at 1,000,000 demo orders): a run stopped by Ctrl-C or SIGTERM removes it before it exits. A process
 * of its own holds one, as the command does, and is sent the signal.
 */

const module = pathToFileURL(path.resolve(import.meta.dirname, '../../src/cli/commands/verify-scratch.ts'));

const holdScratch = (dataDir: string) =>
  spawn(
    process.execPath,
    [
      ...loaderArguments(module),
      '--input-type=module',
      '-e',
      `const { writeFileSync } = await import('node:fs');
       const { verifyScratch } = await import(${JSON.stringify(module.href)});
       const scratch = verifyScratch(${JSON.stringify(dataDir)});
       writeFileSync(scratch.file, 'scratch read models');
       writeFileSync(scratch.file + '-journal', 'its journal');
       console.log(scratch.file);
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );

describe('the scratch copy of projections verify', () => {
  let dataDir: string | undefined;
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`when the run is stopped by ${signal}, its scratch copy is removed and it exits ${code}`, { timeout: 30_000 }, async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'verify-scratch-'));
      const holder = holdScratch(dataDir);
      const [line] = (await once(holder.stdout!, 'data')) as [Buffer];
      const file = line.toString().trim();
      expect(existsSync(file)).toBe(true);

      holder.kill(signal);
      const [exitCode] = await once(holder, 'exit');
      expect(exitCode).toBe(code);
      expect(await readdir(dataDir)).toEqual([]);
    });
  }
});
