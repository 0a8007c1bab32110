import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { cliArguments } from './service-command.ts';

const run = promisify(execFile);

export type CliRun = { code: number; stdout: string; stderr: string };

/**
 * The CLI as an operator runs it: a separate process on DATA_DIR, with only what an operator's shell
 * would give (the test runner's own variables, BASE_URL..., stay out).
 */
export const runCli = async (dataDir: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> => {
  try {
    const { stdout, stderr } = await run(process.execPath, cliArguments(...args), {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
      // A whole replay is several MiB.
      maxBuffer: 256 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};
