import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loadConfig } from '../../../src/config/config.ts';
import type { TreeHead } from '../../../src/events/audit/tree-head.ts';
import { createLogger } from '../../../src/logger.ts';
import { openRuntime } from '../../../src/runtime.ts';
import { cliArguments } from '../../support/service-command.ts';

/** The CLI as an operator or an auditor runs it, on a data folder (and the stores `env` names); its exit code and output. */
const run = promisify(execFile);

export const cli = (dataDir: string, ...args: string[]) => cliOn({ DATA_DIR: dataDir }, ...args);

export const cliOn = async (env: Record<string, string>, ...args: string[]) => {
  try {
    const { stdout, stderr } = await run(process.execPath, cliArguments(...args), {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};

/** Follows the data folder's log into its tree until it has caught up, signs a head, and returns it. */
export const notarise = async (dataDir: string): Promise<TreeHead & { publicKey: string }> => {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', LOG_HEAD_EVERY_EVENTS: '1000000', LOG_HEAD_EVERY_SECONDS: '3600' });
  const runtime = await openRuntime(config, createLogger('silent'), { readYourWrites: false });
  try {
    const { follower, notary, tree } = runtime.logAudit!;
    follower.start();
    await follower.caughtUpTo();
    await notary.signNow();
    await follower.caughtUpTo();
    return tree.latestHead()!;
  } finally {
    await runtime.close();
  }
};
