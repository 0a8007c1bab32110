import { createHash } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';

/** Enough of a file's first bytes for every signature the content check reads (media-type.ts). */
export const headLength = 512;

export type SavedStream = { size: number; head: Buffer; sha256: string };

/**
 * Writes a stream to `file` (created, never overwritten), never holding more than a chunk of it:
 * stops, removes what it wrote and throws `tooLarge()` as soon as it passes `maxBytes`. Answers its
 * size, its first bytes and its SHA-256.
 */
export const saveStream = async (stream: Readable, file: string, maxBytes: number, tooLarge: () => Error): Promise<SavedStream> => {
  const handle = await open(file, 'wx');
  const digest = createHash('sha256');
  let size = 0;
  const head: Buffer[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        stream.destroy();
        throw tooLarge();
      }
      const kept = head.reduce((total, part) => total + part.length, 0);
      if (kept < headLength) head.push(chunk.subarray(0, headLength - kept));
      digest.update(chunk);
      await handle.write(chunk);
    }
  } catch (error) {
    await handle.close();
    await rm(file, { force: true });
    throw error;
  }
  await handle.close();
  return { size, head: Buffer.concat(head), sha256: digest.digest('hex') };
};
