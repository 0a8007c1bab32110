import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { processIsGone } from '../../concurrency/process-gone.ts';

/**
 * The scratch read models `projections verify` replays the log into: a SQLite file in DATA_DIR, whose
 * disk holds the live read models and so has room for a copy (5.6 GB at 1,000,000 demo orders, more
 * than a temporary folder kept in memory may hold), named after the process that made it. It is
 * removed when the run ends, on Ctrl-C or SIGTERM, and, for a run killed outright, by the next run.
 */

/** SQLite's file and those it keeps beside it. */
const suffixes = ['', '-journal', '-wal', '-shm'];
const scratchName = new RegExp(`^verify-scratch-(\\d+)-[0-9a-f-]{36}\\.sqlite(${suffixes.join('|')})$`);

const removeScratch = (file: string): void => {
  for (const suffix of suffixes) rmSync(`${file}${suffix}`, { force: true });
};

export type VerifyScratch = { file: string; release: () => void };

export const verifyScratch = (dataDir: string): VerifyScratch => {
  for (const name of readdirSync(dataDir)) {
    const found = scratchName.exec(name);
    if (found && processIsGone(Number(found[1]))) rmSync(path.join(dataDir, name), { force: true });
  }
  const file = path.join(dataDir, `verify-scratch-${process.pid}-${randomUUID()}.sqlite`);
  const interrupted = (signal: NodeJS.Signals) => {
    removeScratch(file);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  return {
    file,
    release: () => {
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
      removeScratch(file);
    },
  };
};
