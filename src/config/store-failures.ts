import path from 'node:path';
import type { Config } from './config.ts';

/**
 * A store or file-system failure told in one line that names the setting to look at (DATA_DIR,
 * MONGODB_URL, EVENTSTORE_URL), as the CLI and the server print it instead of a stack trace. What is
 * not a store's failure (a defect) keeps its stack.
 */
export class StoreFailure extends Error {
  readonly code = 'STORE_FAILURE';
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'StoreFailure';
  }
}

type Settings = Pick<Config, 'dataDir' | 'mongodbUrl' | 'eventStoreUrl'>;

export const resetCommand = 'npm run --silent cli -- projections reset';

const sqliteHints: [RegExp, string][] = [
  [/^SQLITE_(IOERR|CORRUPT|NOTADB)/, `if read-models.sqlite was deleted or replaced while a server ran, stop the server and run \`${resetCommand}\``],
  [/^SQLITE_(READONLY|CANTOPEN|PERM|AUTH)/, 'check that this user can write DATA_DIR and its files'],
  [/^SQLITE_FULL/, 'the disk holding DATA_DIR is full'],
  [/^SQLITE_BUSY/, 'another process holds the store too long; try again'],
];

const errnoMeaning: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a file is where a folder should be',
  EISDIR: 'a folder is where a file should be',
  EIO: 'input/output error',
  ENOENT: 'no such file or folder (deleted while in use?)',
};

/** The host part of a connection URL, never its credentials. */
const hostsOf = (url: string): string => /^[a-z+]+:\/\/(?:[^@/]*@)?([^/?]*)/.exec(url)?.[1] ?? 'the configured server';

/** The one line for a store failure, or undefined when `error` is not one. */
export const explainStoreFailure = (error: unknown, settings: Settings, file?: string): string | undefined => {
  if (!(error instanceof Error)) return undefined;
  if (error instanceof StoreFailure) return error.message;
  const where = file ? `${path.basename(file)} in DATA_DIR=${settings.dataDir}` : `the embedded stores in DATA_DIR=${settings.dataDir}`;
  const code = (error as { code?: unknown }).code;
  if (error.name === 'SqliteError' && typeof code === 'string') {
    const hint = sqliteHints.find(([pattern]) => pattern.test(code))?.[1];
    return `${where}: ${error.message} (${code})${hint ? `; ${hint}` : ''}`;
  }
  const errno = typeof code === 'string' ? errnoMeaning[code] : undefined;
  const failedPath = (error as NodeJS.ErrnoException).path;
  if (errno && failedPath) {
    const inside = !path.relative(path.resolve(settings.dataDir), path.resolve(failedPath)).startsWith('..');
    return `${inside ? `DATA_DIR=${settings.dataDir}: ` : ''}${failedPath}: ${errno} (${code})`;
  }
  if (/^Mongo(ServerSelection|Network|Topology)/.test(error.name) && settings.mongodbUrl) {
    return `MONGODB_URL: the MongoDB server at ${hostsOf(settings.mongodbUrl)} cannot be reached (${firstLine(error.message)})`;
  }
  if ((error.name === 'UnavailableError' || /ECONNREFUSED|UNAVAILABLE|Failed to discover/i.test(error.message)) && settings.eventStoreUrl) {
    return `EVENTSTORE_URL: EventStoreDB at ${hostsOf(settings.eventStoreUrl)} cannot be reached (${firstLine(error.message)})`;
  }
  return undefined;
};

const firstLine = (text: string): string => (text.split('\n')[0] ?? '').slice(0, 200);

/** Runs `open`, turning a store failure into a StoreFailure that names the setting (and the file, when given). */
export const opening = async <T>(settings: Settings, open: () => T | Promise<T>, file?: string): Promise<T> => {
  try {
    return await open();
  } catch (error) {
    const explained = explainStoreFailure(error, settings, file);
    if (explained) throw new StoreFailure(explained, { cause: error });
    throw error;
  }
};
