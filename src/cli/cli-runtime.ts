import { loadConfig } from '../config/config.ts';
import { createLogger } from '../logger.ts';
import { openRuntime, type Runtime } from '../runtime.ts';

/** Runs a command's work on the runtime of DATA_DIR's stores, opened for it alone and closed after. */
export type WithRuntime = (work: (runtime: Runtime) => Promise<void>) => Promise<void>;

/** Opened only when a command runs: `--help` and input errors answer without touching the stores. */
export const withRuntime: WithRuntime = async (work) => {
  const config = loadConfig();
  // Logs go to stderr: stdout carries the command's output (a token on its last line, JSON lines).
  const runtime = await openRuntime(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, 'stderr'), {
    readYourWrites: false,
    // Larger ID blocks for bulk commands; IDs left in a block when the command ends are never reused.
    idBlockSize: 1000,
  });
  try {
    await work(runtime);
  } finally {
    await runtime.close();
  }
};
