import { Piscina } from 'piscina';
import { loaderArguments, workerEntry } from '../../concurrency/worker-entry.ts';
import type { Logger } from '../../logger.ts';
import type { UnparsedEvent } from '../store/event-store.ts';
import { HASH_SIZE, type Hash } from './merkle.ts';

/**
 * A worker thread making the leaves' hashes of pages of the log (leaf-worker.ts) while the thread that
 * reads the log and writes the tree goes on with the next page: a tree catching up with a long log
 * uses two cores, making a leaf (its canonical text, its hash) costing about as much as reading its
 * event and writing it into the tree. Pages are hashed in the order given.
 */
export type LeafHashing = {
  /** The hashes of the events' leaves, in their order. */
  hashes(events: readonly UnparsedEvent[]): Promise<Hash[]>;
  /** Ends the thread: the pages it had not hashed fail, and so do those asked for after. */
  close(): Promise<void>;
};

const defaultWorker = workerEntry(new URL('./leaf-worker.ts', import.meta.url), 'leaf-worker');

export const startLeafHashing = (log: Logger, worker: URL = defaultWorker): LeafHashing => {
  const piscina = new Piscina<readonly UnparsedEvent[], Uint8Array>({
    filename: worker.href,
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Number.POSITIVE_INFINITY,
    execArgv: loaderArguments(worker),
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  // A thread that fails outside a page (its module not loading) fails the pages asked for; without a
  // listener, the pool's 'error' event would stop the server.
  piscina.on('error', (error: unknown) => log.error({ err: error }, "the log tree's leaf worker failed"));
  let closed = false;
  return {
    hashes: async (events) => {
      if (closed) throw new Error("The log tree's leaf worker is closed");
      const hashes = await piscina.run(events);
      const bytes = Buffer.from(hashes.buffer, hashes.byteOffset, hashes.byteLength);
      return Array.from({ length: events.length }, (_, i) => bytes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE));
    },
    close: async () => {
      closed = true;
      await piscina.destroy();
    },
  };
};
