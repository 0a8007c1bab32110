import { existsSync } from 'node:fs';
import { liveLeases } from '../projections/projection-lease.ts';
import { openSqliteReadStore } from '../projections/read-store/sqlite-read-store.ts';
import { CliError } from './cli-error.ts';

/**
 * Refuses a command that deletes embedded stores while a process (the server, another command) runs on
 * DATA_DIR: it holds a lease in the read models, and would go on with its own open files. `command`
 * names the refused command; `instead` what to do beside a running server, if anything.
 */
export const refuseWhileDataDirInUse = async (readModelsFile: string, dataDir: string, command: string, instead?: string): Promise<void> => {
  if (!existsSync(readModelsFile)) return;
  let holders;
  try {
    const store = openSqliteReadStore({ file: readModelsFile });
    try {
      holders = await liveLeases(store, new Date());
    } finally {
      await store.close();
    }
  } catch {
    // A file SQLite cannot read (deleted under a server, its journal left behind) serves no one.
    return;
  }
  if (holders.length === 0) return;
  const processes = [...new Set(holders.map((lease) => (lease.pid ? `pid ${lease.pid}${lease.host ? ` on ${lease.host}` : ''}` : lease.owner)))];
  throw new CliError(`${command}: a process runs on DATA_DIR=${dataDir} (${processes.join(', ')}); stop it first${instead ? `, or ${instead}` : ''}`);
};
