import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EventStore, NewEvent, RecordedEvent } from '../store/event-store.ts';
import type { EncryptingEventStore } from './encrypting-event-store.ts';
import type { KeyStore } from './key-store.ts';

export type CopyProgress = { copiedUpTo: number; events: number };

const pageSize = 500;

/** The runs of consecutive events of one stream in a page: each is appended in one request. */
const runsOf = (page: readonly RecordedEvent[]): RecordedEvent[][] => {
  const runs: RecordedEvent[][] = [];
  for (const event of page) {
    const last = runs.at(-1);
    if (last && last[0]!.streamName === event.streamName && last.at(-1)!.revision === event.revision - 1) last.push(event);
    else runs.push([event]);
  }
  return runs;
};

const readCheckpoint = async (file: string): Promise<number> => {
  try {
    return (JSON.parse(await readFile(file, 'utf8')) as { copiedUpTo: number }).copiedUpTo;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return -1;
    throw error;
  }
};

const saveCheckpoint = async (file: string, copiedUpTo: number): Promise<void> => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(`${file}.partial`, JSON.stringify({ copiedUpTo }));
  await rename(`${file}.partial`, file);
};

/**
 * `cli events copy-encrypted`: EventStoreDB never rewrites an event, so a log written before
 * encryption is copied, in position order, into a new database (or namespace) with its personal data
 * sealed as the encrypting layer appends it. Every event keeps its stream, revision, id, type,
 * metadata and the rest of its data; positions are the new store's. Each stream's events are appended
 * at their own revision, so a run interrupted and started again (from the checkpoint file, or from the
 * start without it) writes nothing twice: re-sending the same event ids at the same revision is
 * idempotent. The key store notes the copy as a log without clear personal data, so that customers
 * can be erased once the service runs on it.
 */
export const copyEncryptedLog = async (options: {
  source: EventStore;
  target: EventStore;
  log: EncryptingEventStore;
  keys: KeyStore;
  /** The copy's name in the key store's migration state. */
  targetIdentity: string;
  checkpointFile: string;
  onPage?: (progress: CopyProgress) => void;
}): Promise<CopyProgress> => {
  // Nothing in the copy is clear: whatever the head when the service first opens it.
  await options.keys.recordLegacyHead(options.targetIdentity, -1);
  const progress: CopyProgress = { copiedUpTo: await readCheckpoint(options.checkpointFile), events: 0 };
  for (;;) {
    const page = await options.source.readAll({ ...(progress.copiedUpTo >= 0 && { fromPosition: progress.copiedUpTo }), maxCount: pageSize });
    for (const run of runsOf(page)) {
      const { streamName, revision } = run[0]!;
      const events: NewEvent[] = run.map(({ id, type, data, metadata }) => ({ id, type, data, metadata }));
      const sealed = await options.log.sealEvents(streamName, events);
      await options.target.appendToStream(streamName, sealed, { expectedRevision: revision === 0 ? 'no_stream' : revision - 1 });
    }
    if (page.length === 0) return progress;
    progress.copiedUpTo = page.at(-1)!.position;
    progress.events += page.length;
    await saveCheckpoint(options.checkpointFile, progress.copiedUpTo);
    options.onPage?.({ ...progress });
    if (page.length < pageSize) return progress;
  }
};
