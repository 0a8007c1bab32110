import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from './stored-label.ts';

/**
 * How far the label backlog got: `DATA_DIR/labels-checkpoint.json`, the log position up to which every
 * imported order has its labels on disk. A restart resumes after it, so a label left unrendered by a
 * crash or a shutdown is rendered at the next start, not only on its first fetch.
 */
export type LabelCheckpointFile = {
  read: () => Promise<number | undefined>;
  write: (position: number) => Promise<void>;
};

export const labelCheckpointFile = (dataDir: string): LabelCheckpointFile => {
  const file = path.join(dataDir, 'labels-checkpoint.json');
  return {
    read: async () => {
      try {
        const { position } = JSON.parse(await readFile(file, 'utf8')) as { position?: unknown };
        if (typeof position !== 'number' || !Number.isInteger(position)) throw new Error(`${file}: no integer position`);
        return position;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    write: (position) => writeFileAtomically(file, Buffer.from(`${JSON.stringify({ position })}\n`)),
  };
};
