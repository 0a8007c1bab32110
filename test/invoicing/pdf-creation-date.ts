import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The creation date a PDF reader shows (pdfinfo, ISO 8601). */
export const pdfCreationDate = async (bytes: Uint8Array): Promise<string | undefined> => {
  const folder = await mkdtemp(path.join(tmpdir(), 'invoice-pdf-'));
  try {
    const file = path.join(folder, 'invoice.pdf');
    await writeFile(file, bytes);
    const { stdout } = await run('pdfinfo', ['-isodates', file]);
    return /^CreationDate:\s+(\S+)/m.exec(stdout)?.[1];
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
};
