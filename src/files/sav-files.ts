import path from 'node:path';
import { rm, writeFile } from 'node:fs/promises';
import type { SavFileKind } from '../events/after-sales/sav-commands.ts';
import { incomingFile, keepAs, safeFileName } from './file-storage.ts';
import { sniffMediaType } from './media-type.ts';
import { RemoteFileError } from './remote-file-error.ts';
import { fetchToFile, type SafeFetchOptions } from './safe-fetch.ts';

/** The files of SAVs, fetched from the URLs clients give or sent with the request, kept under `DATA_DIR/sav-files/<savId>/`. */

export const savFilesFolder = 'sav-files';

/** A file kept for a SAV: what its SavFileAttached event records. */
export type StoredSavFile = {
  kind: SavFileKind;
  contentType: string;
  size: number;
  /** Relative to DATA_DIR, with `/` separators. */
  storedPath: string;
  /** The name the client gave (its last segment), for display. */
  fileName: string;
  sourceUrl: string;
};

export const acceptedMediaFormats = 'JPEG, PNG, GIF, WebP, HEIC/HEIF, AVIF, MP4, MOV, 3GP, WebM, MKV or AVI';

const displayName = (given: string, stored: string): string => (given.split(/[/\\]/).pop()?.trim() || stored).slice(0, 255);

/**
 * Fetches the file at `url` (see fetchToFile for the network rules), keeps it only when its content is
 * an accepted image or video, under a safe and unique name. Throws a RemoteFileError otherwise, and
 * then nothing is left on disk.
 */
export const fetchSavFile = async (
  dataDir: string,
  input: { savId: number; url: string; fileName: string },
  options: SafeFetchOptions,
): Promise<StoredSavFile> => {
  const folder = path.posix.join(savFilesFolder, String(input.savId));
  const incoming = await incomingFile(path.join(dataDir, folder));
  const fetched = await fetchToFile(input.url, incoming, options);
  const media = sniffMediaType(fetched.head);
  if (!media) {
    await rm(incoming, { force: true });
    throw new RemoteFileError('unsupported_type', `the file is not an accepted image or video (${acceptedMediaFormats})`);
  }
  const name = await keepAs(incoming, safeFileName(input.fileName, media.extension));
  return {
    kind: media.kind,
    contentType: media.contentType,
    size: fetched.size,
    storedPath: path.posix.join(folder, name),
    fileName: displayName(input.fileName, name),
    sourceUrl: input.url,
  };
};

/**
 * Keeps a file sent with the request (its content checked at the edge, see data-url.ts) in the SAV's
 * folder, under a safe and unique name, written whole before it gets its name.
 */
export const storeSavFile = async (
  dataDir: string,
  input: { savId: number; bytes: Uint8Array; fileName: string; contentType: string; extension: string },
): Promise<{ storedPath: string; contentType: string; size: number }> => {
  const folder = path.posix.join(savFilesFolder, String(input.savId));
  const incoming = await incomingFile(path.join(dataDir, folder));
  try {
    await writeFile(incoming, input.bytes, { flag: 'wx' });
  } catch (error) {
    await rm(incoming, { force: true });
    throw error;
  }
  const name = await keepAs(incoming, safeFileName(input.fileName, input.extension));
  return { storedPath: path.posix.join(folder, name), contentType: input.contentType, size: input.bytes.length };
};

/** Removes a kept file that could not be recorded on its SAV. */
export const discardSavFile = (dataDir: string, storedPath: string): Promise<void> => rm(path.join(dataDir, storedPath), { force: true });
