import { isMainThread } from 'node:worker_threads';
import autocannon from 'autocannon';

/**
 * One load run against an HTTP origin, through autocannon: `connections` keep-alive connections send
 * requests back to back for `seconds`, each request built by `next()` when it is sent, so that a run
 * can walk a list of distinct inputs (each POST a different line). `limit` ends the run early when
 * such a list runs out, rather than sending its last input again.
 */

export type LoadRequest = {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
};

export type LoadOptions = {
  origin: string;
  next: () => LoadRequest;
  connections: number;
  seconds: number;
  limit?: number;
  /** Sees each answer (e.g. to count cache hits); costs the body's buffering. */
  onResponse?: (status: number, body: string, headers: Record<string, unknown>) => void;
};

export type LoadResult = {
  completed: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers per status code, e.g. { '200': 980, '404': 20 }. */
  statuses: Record<string, number>;
  non2xx: number;
  /** Connection errors and timeouts: requests that got no answer at all. */
  failures: number;
  bytesPerAnswer: number;
};

export const runLoad = async (options: LoadOptions): Promise<LoadResult> => {
  // autocannon refuses fewer requests than connections: a short list runs on fewer connections.
  const connections = Math.max(1, Math.min(options.connections, options.limit ?? options.connections));
  const settings = { url: options.origin, connections, duration: options.seconds };
  const raw = await autocannon({
    ...settings,
    // Slow routes on a busy machine: an answer after 10 s is still an answer, counted in the latency.
    timeout: 60,
    ...(options.limit !== undefined && { maxOverallRequests: options.limit }),
    requests: [
      {
        setupRequest: (request) => {
          const next = options.next();
          const headers = { ...request.headers, ...next.headers, ...(next.body !== undefined && { 'content-type': 'application/json' }) };
          return { ...request, method: next.method ?? 'GET', path: next.path, headers, body: next.body ?? '' };
        },
        ...(options.onResponse && {
          onResponse: (status: number, body: string, _context: object, headers: Record<string, unknown> | undefined) =>
            options.onResponse?.(status, body, headers ?? {}),
        }),
      },
    ],
  });
  // In a worker thread autocannon hands back its histograms encoded, for a main thread to aggregate.
  // (a function of autocannon's its type definitions leave out)
  const { aggregateResult } = autocannon as unknown as { aggregateResult: (results: unknown[], settings: object) => autocannon.Result };
  const result = isMainThread ? raw : aggregateResult([raw], settings);
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count ?? 0]));
  const completed = result.requests.total;
  return {
    completed,
    seconds: result.duration,
    perSecond: result.duration > 0 ? completed / result.duration : 0,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    statuses,
    non2xx: result.non2xx,
    failures: result.errors + result.timeouts,
    bytesPerAnswer: completed > 0 ? result.throughput.total / completed : 0,
  };
};
