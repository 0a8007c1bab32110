import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { ConfigError } from './config.ts';

/**
 * DATA_DIR made ready before any store opens in it: created if missing, and refused in one line that
 * names the setting when it cannot hold the stores (a file, a folder this user cannot write), rather
 * than the first store's own error (`EEXIST: mkdir`, `SqliteError: unable to open database file`).
 */
export const prepareDataDir = (dataDir: string): void => {
  const existing = statOf(dataDir);
  if (existing && !existing.isDirectory())
    throw new ConfigError([`DATA_DIR=${dataDir}: a file, not a folder; point DATA_DIR at a folder (created if missing)`]);
  try {
    if (!existing) mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'ENOTDIR' || code === 'EEXIST') throw new ConfigError([`DATA_DIR=${dataDir}: a part of this path is a file, not a folder`]);
    throw new ConfigError([
      `DATA_DIR=${dataDir}: this user cannot ${existing ? 'write to' : 'create'} the folder (${code}); point DATA_DIR at a folder it can write`,
    ]);
  }
};

const statOf = (file: string) => {
  try {
    return statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') throw new ConfigError([`DATA_DIR=${file}: a part of this path is a file, not a folder`]);
    throw new ConfigError([`DATA_DIR=${file}: cannot be read (${code ?? 'error'})`]);
  }
};
