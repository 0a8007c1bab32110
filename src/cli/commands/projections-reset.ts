import { rm } from 'node:fs/promises';
import { loadConfig } from '../../config/config.ts';
import { prepareDataDir } from '../../config/data-dir.ts';
import { readModelsFile } from '../../runtime.ts';
import { CliError } from '../cli-error.ts';
import { refuseWhileDataDirInUse } from '../data-dir-in-use.ts';
import type { WithRuntime } from '../cli-runtime.ts';
import { printLine } from '../output.ts';
import { logUnit, progressBar } from '../progress-bar.ts';

/**
 * `projections reset`: the embedded read models started over, safely: refused while a server (or
 * another command) runs on DATA_DIR, whose open file would go on without the new one; else the file
 * and its journal are deleted together (a journal left beside a new file is what SQLite reads as a
 * disk I/O error), and the read models are rebuilt from the log, with a progress bar. On MongoDB,
 * shared by the running instances, `projections rebuild` is the way (beside them, swapped when done).
 */
export const resetReadModels = async (withRuntime: WithRuntime): Promise<void> => {
  const config = loadConfig();
  if (config.mongodbUrl) {
    throw new CliError(
      'projections reset: for the embedded read models; on MongoDB (MONGODB_URL) use `projections rebuild`, which rebuilds them beside the running instances',
    );
  }
  prepareDataDir(config.dataDir);
  const file = readModelsFile(config);
  await refuseWhileDataDirInUse(file, config.dataDir, 'projections reset', 'run `projections rebuild`, which rebuilds the read models beside it');
  await Promise.all(['', '-wal', '-shm', '-journal'].map((suffix) => rm(`${file}${suffix}`, { force: true })));
  await withRuntime(async (runtime) => {
    const startedAt = Date.now();
    const head = await runtime.eventStore.headPosition();
    const bar = progressBar('reset', Math.max(1, head + 1), logUnit(runtime));
    const following = setInterval(() => bar.update((runtime.projections.progress().position ?? -1) + 1), 250);
    try {
      await runtime.projections.start();
      bar.update((runtime.projections.progress().position ?? head) + 1);
    } finally {
      clearInterval(following);
      bar.stop();
    }
    const failed = runtime.projections.status().filter((status) => status.lastError !== null);
    if (failed.length > 0) throw new CliError(`reset: ${failed.map((status) => `${status.name}: ${status.lastError}`).join('; ')}`);
    await printLine(`Read models reset: rebuilt from the log in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  });
};
