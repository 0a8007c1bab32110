import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { startWorker, workerEntry } from '../../concurrency/worker-entry.ts';
import { EventStoreUnavailableError } from './event-store.ts';
import type { Committer } from './sqlite-group-commit.ts';
import { failureFromWire, outcomesFromWire, type WriterData, type WriterReply, type WriterRequest } from './sqlite-writer-protocol.ts';

/**
 * The embedded log's commits, made on a thread of their own (sqlite-writer-worker.ts, its own
 * connection to the file): a group's transaction, and the fsync its COMMIT waits for under
 * `synchronous = FULL`, run there while the thread that answers the API goes on; a lock held by
 * another process (the CLI) is waited for there too. The groups are sent one at a time, in order
 * (sqlite-group-commit.ts), and their appends settle once the COMMIT has returned, as on one thread:
 * an acknowledged append is on disk, and the reads made after it, on the caller's connection, see it.
 *
 * A thread that stops (it should not) fails the group under way with EventStoreUnavailableError, its
 * outcome unknown: an append sent again with the same event ids is recorded once (sqlite-append.ts).
 * The next group starts a new thread. The thread keeps the process alive only while a group is under way.
 * A thread costs some 80 ms to start (taken by the first group) and its own heap: the server's thread
 * answers the API, the CLI's does not, so only the server uses one. It starts at the first group, not
 * with the store: a thread started while the server's modules load, beside OpenTelemetry's module hooks
 * (src/tracing), left the trace exporter without its modules, and no span was ever sent (the tracing spec).
 */
export type WriterThread = { commit: Committer; close: () => Promise<void> };

export const startWriterThread = (data: WriterData): WriterThread => {
  const waiting = new Map<number, { resolve: (reply: WriterReply) => void; reject: (error: Error) => void }>();
  let lastId = 0;
  let worker: Worker | undefined;

  const thread = (): Worker => {
    if (worker) return worker;
    // Its heap holds the groups under way (4 MiB of events at most each, sqlite-event-store.ts).
    const started = startWorker(workerEntry(new URL('./sqlite-writer-worker.ts', import.meta.url), 'sqlite-writer-worker'), {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
    });
    started.on('message', (reply: WriterReply) => {
      const group = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (waiting.size === 0) started.unref();
      group?.resolve(reply);
    });
    const lost = (error?: unknown) => {
      if (worker !== started) return;
      worker = undefined;
      const failure = new EventStoreUnavailableError(`The event store's writer thread stopped${error instanceof Error ? `: ${error.message}` : ''}`, {
        cause: error,
      });
      for (const group of waiting.values()) group.reject(failure);
      waiting.clear();
    };
    started.on('error', lost);
    started.on('exit', () => lost());
    started.unref();
    return (worker = started);
  };

  return {
    commit: async (appends, recordedAt) => {
      const reply = await new Promise<WriterReply>((resolve, reject) => {
        const id = ++lastId;
        const writer = thread();
        waiting.set(id, { resolve, reject });
        writer.ref();
        const request: WriterRequest = {
          type: 'commit',
          id,
          appends: appends.map(({ streamName, events, expected }) => ({ streamName, events, expected })),
          recordedAt,
        };
        writer.postMessage(request);
      });
      if ('failure' in reply) throw failureFromWire(reply.failure);
      return outcomesFromWire(reply.outcomes);
    },
    close: async () => {
      const closing = worker;
      worker = undefined;
      if (!closing) return;
      const exited = once(closing, 'exit');
      closing.postMessage({ type: 'close' } satisfies WriterRequest);
      await exited;
    },
  };
};
