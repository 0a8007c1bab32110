import { parentPort } from 'node:worker_threads';
import { loadConfig } from '../config/config.ts';
import { createLogger } from '../logger.ts';
import { openRuntime } from '../runtime.ts';
import type { ReadModelsThreadFailure } from './read-models-thread.ts';

/**
 * The thread that follows the log into the read models while a command writes (read-models-thread.ts):
 * the stores of DATA_DIR opened as the command opens them, the projections started, then stopped when
 * asked, their checkpoints written.
 */
const port = parentPort!;
const stopAsked = new Promise<void>((resolve) => port.once('message', () => resolve()));

const follow = async (): Promise<void> => {
  const config = loadConfig();
  const runtime = await openRuntime(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, 'stderr'), { readYourWrites: false });
  try {
    // Resolves once caught up with the log as it was at start, then follows what the command appends.
    const started = runtime.projections.start();
    await stopAsked;
    await started;
  } finally {
    await runtime.close();
  }
};

void follow()
  .catch((error: unknown) => port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies ReadModelsThreadFailure))
  .finally(() => port.close());
