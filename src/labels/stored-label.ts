import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Label files on disk. A PDF carries the digest of the data it was rendered from in its Keywords, an
 * uncompressed literal string of the document information, so that a file can be checked against the
 * recorded label without parsing the PDF.
 */

export const digestKeyword = (digest: string): string => `label-digest:${digest}`;

/** False when the file is missing or was rendered from other data (an older address, another tracking number). */
export const storedLabelMatches = async (file: string, digest: string): Promise<boolean> => {
  try {
    const bytes = await readFile(file);
    return bytes.includes(`(${digestKeyword(digest)})`, 0, 'latin1');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
};

/**
 * Writes the file whole or not at all: a temporary file in the same folder, flushed to disk, then
 * renamed over the target, so that a reader (or a crash) never sees half a PDF.
 */
export const writeFileAtomically = async (file: string, bytes: Uint8Array): Promise<void> => {
  const folder = path.dirname(file);
  await mkdir(folder, { recursive: true });
  const temporary = path.join(folder, `.${path.basename(file)}.${randomUUID()}.tmp`);
  try {
    const handle = await open(temporary, 'wx', 0o640);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  // The rename itself is durable once the folder's entry is flushed.
  const directory = await open(folder, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
};
