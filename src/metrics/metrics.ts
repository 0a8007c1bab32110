import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { AppendTiming } from '../events/store/timed-event-store.ts';

/**
 * The service's Prometheus metrics, one registry per runtime (served by GET /metrics): the process's
 * own (memory, CPU, event-loop lag, GC), the HTTP requests by route pattern and status, the event
 * store's append latency, and the gauges of work waiting (read-side-gauges.ts).
 */
export type Metrics = {
  registry: Registry;
  /** One finished request: its route pattern (never the raw URL, whose IDs would make a series each). */
  observeRequest: (request: { method: string; route: string; status: number; seconds: number }) => void;
  observeAppend: AppendTiming;
  /** A GraphQL operation made of fields answered from read models alone: answered from memory (hit) or computed (miss). */
  observeKeptAnswer: (outcome: 'hit' | 'miss') => void;
};

/** Seconds: from a cached read (1 ms) to a PDF rendered in the request (a second or more). */
const requestBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: an embedded append takes well under a millisecond, an EventStoreDB round trip a few. */
const appendBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

export const createMetrics = (): Metrics => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: requestBuckets,
    registers: [registry],
  });
  const appendDuration = new Histogram({
    name: 'event_store_append_duration_seconds',
    help: 'Time of an append to the event store, by outcome (ok, conflict on the expected revision, error).',
    labelNames: ['outcome'] as const,
    buckets: appendBuckets,
    registers: [registry],
  });

  const keptAnswers = new Counter({
    name: 'graphql_kept_answers_total',
    help: 'GraphQL operations answered from read models alone: hit (the answer kept since the read models last changed) or miss (computed).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });

  return {
    registry,
    observeRequest: ({ method, route, status, seconds }) => {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      requestDuration.observe(labels, seconds);
    },
    observeAppend: (seconds, outcome) => appendDuration.observe({ outcome }, seconds),
    observeKeptAnswer: (outcome) => keptAnswers.inc({ outcome }),
  };
};
