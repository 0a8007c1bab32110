import { randomUUID } from 'node:crypto';
import { link, mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * The service's file storage, under DATA_DIR: names that are safe on every file system and in a URL
 * (no separator, no traversal, no hidden file, no shell or HTML character), unique in their folder,
 * and files that appear whole or not at all.
 */

const maxStemLength = 100;

/**
 * A safe name from the name a client gave: its last path segment, accents folded, every other
 * character outside `A-Z a-z 0-9 . _ -` replaced, no leading dot or dash, and the extension of the
 * content (`extension`), never the client's.
 */
export const safeFileName = (given: string, extension: string, fallback = 'file'): string => {
  const base = given.split(/[/\\]/).pop() ?? '';
  const stem = base.includes('.') ? base.slice(0, base.lastIndexOf('.')) : base;
  const safe = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[.-]+/, '')
    .replace(/[.-]+$/, '')
    .slice(0, maxStemLength);
  return `${safe || fallback}.${extension}`;
};

/** A name for a file being received in `directory`: hidden, random, never taken. */
export const incomingFile = async (directory: string): Promise<string> => {
  await mkdir(directory, { recursive: true });
  return path.join(directory, `.incoming-${randomUUID()}`);
};

/** `photo.jpg` -> `photo-2.jpg`; a safe name always has an extension. */
const withSuffix = (name: string, suffix: string): string => {
  const dot = name.lastIndexOf('.');
  return `${name.slice(0, dot)}-${suffix}${name.slice(dot)}`;
};

/** Flushes a file's content, or a folder's entries, to disk. */
export const syncToDisk = async (file: string): Promise<void> => {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};

const linkFirstFree = async (incoming: string, directory: string, name: string): Promise<string> => {
  for (let attempt = 1; attempt <= 1000; attempt++) {
    const candidate = attempt === 1 ? name : withSuffix(name, String(attempt));
    try {
      await link(incoming, path.join(directory, candidate));
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const unique = withSuffix(name, randomUUID());
  await link(incoming, path.join(directory, unique));
  return unique;
};

/**
 * Gives the received file its final `name` in its folder, adding `-2`, `-3`... when the name is
 * taken: a hard link never replaces an existing file, so two uploads of one name both keep theirs.
 * The content and the new name are on disk when it answers (the event naming the file comes next,
 * and the event store's commits survive a crash). Answers the name given.
 */
export const keepAs = async (incoming: string, name: string): Promise<string> => {
  const directory = path.dirname(incoming);
  try {
    await syncToDisk(incoming);
    const kept = await linkFirstFree(incoming, directory, name);
    await syncToDisk(directory);
    return kept;
  } finally {
    await rm(incoming, { force: true });
  }
};
