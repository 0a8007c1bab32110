import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The secret that signs action tokens. Given by TOKEN_SECRET in production; on a developer machine it
 * is generated once and kept in DATA_DIR, so that the server and the CLI (which mints tokens) agree.
 */
export const resolveTokenSecret = (configured: string | undefined, dataDir: string): string => {
  if (configured) return configured;
  const file = path.join(dataDir, 'token-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    // 'wx': if another process created it first, keep theirs.
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFileSync(file, 'utf8').trim();
  }
};
