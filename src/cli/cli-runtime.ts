import { loadConfig, type Config } from '../config/config.ts';
import { explainStoreFailure, StoreFailure } from '../config/store-failures.ts';
import { createLogger } from '../logger.ts';
import { openRuntime, type Runtime } from '../runtime.ts';

/** Runs a command's work on the runtime of DATA_DIR's stores, opened for it alone and closed after. */
export type WithRuntime = (work: (runtime: Runtime) => Promise<void>) => Promise<void>;

/** Opened only when a command runs: `--help` and input errors answer without touching the stores. */
export const withRuntime: WithRuntime = async (work) => {
  const config = loadConfig();
  try {
    await opened(config, work);
  } catch (error) {
    // A store's failure (a deleted file, a full disk, a server out of reach) is one line naming the setting.
    const explained = explainStoreFailure(error, config);
    throw explained ? new StoreFailure(explained, { cause: error }) : error;
  }
};

const opened = async (config: Config, work: (runtime: Runtime) => Promise<void>): Promise<void> => {
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
