import { Piscina } from 'piscina';
import { loaderArguments, workerEntry } from '../concurrency/worker-entry.ts';
import type { Logger } from '../logger.ts';
import { PdfPoolBusyError, PdfPoolClosedError, PdfRenderFailedError } from './pdf-errors.ts';
import type { PdfPriority } from './pdf-job.ts';
import type { PdfJob } from './pdf-worker.ts';

/**
 * The PDF renderers: worker threads (piscina), so that a document's tens of milliseconds of CPU never
 * hold up the event loop that answers every other request. The pool keeps its own two queues in front
 * of the workers, handing a worker at most one document at a time: documents a person waits for go
 * before the labels rendered in the background after imports, and the person queue is bounded, so a
 * burst of invoice requests is answered 503 with Retry-After instead of piling up. Each document has
 * a time limit: a renderer that exceeds it, or crashes, is terminated and replaced, and only its
 * document fails.
 */
export type PdfPool = {
  render: (job: PdfJob, priority: PdfPriority) => Promise<Buffer>;
  /** Starts the workers now (they load pdfmake and the fonts on their first document). */
  warmUp: () => void;
  stats: () => { threads: number; running: number; waiting: Record<PdfPriority, number>; rendered: number };
  /** Refuses new documents, waits for those queued and running, then stops the workers. */
  close: () => Promise<void>;
};

export type PdfPoolOptions = {
  threads: number;
  /** Most documents a person waits for that may queue for a worker. */
  maxQueue: number;
  /** Most milliseconds one document may take in its worker. */
  timeoutMs: number;
  log: Logger;
  /** The worker module (a default-exported function of a PdfJob); the service's own by default. */
  worker?: URL;
};

const defaultWorker = workerEntry(new URL('./pdf-worker.ts', import.meta.url), 'pdf-worker');

type Pending = { job: PdfJob; resolve: (pdf: Buffer) => void; reject: (error: unknown) => void };

export const createPdfPool = (options: PdfPoolOptions): PdfPool => {
  const { threads, maxQueue, timeoutMs, log } = options;
  let piscina: Piscina<PdfJob, Uint8Array> | undefined;
  let closed = false;
  let running = 0;
  let rendered = 0;
  let idle: (() => void) | undefined;
  const waiting: Record<PdfPriority, Pending[]> = { person: [], background: [] };
  // A running average of a document's time in its worker, for Retry-After.
  let averageMs = 100;

  const worker = options.worker ?? defaultWorker;
  const workers = (): Piscina<PdfJob, Uint8Array> => {
    if (piscina) return piscina;
    piscina = new Piscina<PdfJob, Uint8Array>({
      filename: worker.href,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      execArgv: loaderArguments(worker),
      // A runaway document fails its worker, never the server's heap. The young generation capped at
      // 16 MiB: a document's garbage is short-lived; left to grow, a worker took ~20 MiB more
      // (`bench:pdf`, docs/benchmarks.md); 8 and 4 MiB saved more but cost more CPU per document.
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 },
    });
    // A worker that fails outside a document (its module not loading) is replaced by piscina; without
    // a listener, the pool's 'error' event would stop the server.
    piscina.on('error', (error: unknown) => log.error({ err: error }, 'PDF worker failed'));
    return piscina;
  };

  const run = (pending: Pending): void => {
    running++;
    const signal = AbortSignal.timeout(timeoutMs);
    const started = performance.now();
    workers()
      .run(pending.job, { signal })
      .then(
        (bytes) => {
          averageMs = averageMs * 0.9 + (performance.now() - started) * 0.1;
          rendered++;
          pending.resolve(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        },
        (error: unknown) => {
          const failure = new PdfRenderFailedError(signal.aborted ? 'timed_out' : 'failed', { cause: error });
          log.error({ err: error, document: pending.job.kind, reason: failure.reason }, 'PDF document not rendered');
          pending.reject(failure);
        },
      )
      .finally(() => {
        running--;
        dispatch();
      });
  };

  const dispatch = (): void => {
    while (running < threads) {
      const next = waiting.person.shift() ?? waiting.background.shift();
      if (!next) break;
      run(next);
    }
    if (running === 0) idle?.();
  };

  return {
    render: (job, priority) => {
      if (closed) return Promise.reject(new PdfPoolClosedError());
      if (priority === 'person' && running >= threads && waiting.person.length >= maxQueue) {
        const seconds = Math.ceil(((waiting.person.length + running) / threads) * (averageMs / 1000));
        return Promise.reject(new PdfPoolBusyError(Math.min(Math.max(seconds, 1), 60)));
      }
      return new Promise<Buffer>((resolve, reject) => {
        waiting[priority].push({ job, resolve, reject });
        dispatch();
      });
    },
    warmUp: () => {
      if (!closed) workers();
    },
    stats: () => ({ threads, running, waiting: { person: waiting.person.length, background: waiting.background.length }, rendered }),
    close: async () => {
      closed = true;
      if (running > 0 || waiting.person.length + waiting.background.length > 0) {
        await new Promise<void>((resolve) => (idle = resolve));
      }
      await piscina?.destroy();
    },
  };
};
