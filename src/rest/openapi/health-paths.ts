import { z } from 'zod';
import type { RouteDoc } from './document.ts';

/** GET /health, /health/live and /health/ready, as health-routes.ts answers them. */

const readModels = z
  .object({
    ready: z.boolean(),
    position: z.number().int().nullable().describe('The position the read models have applied up to'),
    head: z.number().int().describe("The log's last position"),
    eventsPerSecond: z.number().int(),
    etaSeconds: z.number().nullable().describe('Estimated seconds left to catch up'),
  })
  .describe('How far the read models are');

const retryAfter = z.object({ 'Retry-After': z.string().regex(/^\d+$/).optional().describe('Seconds, while the read models catch up') });

export const liveResponse = z.object({ status: z.literal('live') });

export const readyResponse = z.object({
  status: z.enum(['ready', 'unavailable', 'starting']).describe('starting: the read models are still catching up with the log'),
  eventStore: z.enum(['open', 'closed']),
  readModels,
  platform: z
    .enum(['configured', 'off'])
    .describe('Whether an approved platform is configured (PLATFORM_URL); off: no e-invoice or e-reporting is handed to one. It does not change the status'),
});

export const healthResponse = z.object({
  status: z.enum(['ok', 'unavailable', 'starting']).describe('starting: the read models are still catching up with the log'),
  eventStore: z.enum(['open', 'closed']),
  readModels,
  projections: z.array(
    z.object({
      name: z.string(),
      version: z.number().int(),
      generation: z.number().int().nullable().describe('The generation queries read; null before the first one'),
      position: z.number().int().nullable().describe('Position of the last event applied; null before the first one'),
      caughtUp: z.boolean(),
      running: z.boolean(),
      rebuilding: z
        .object({ generation: z.number().int(), version: z.number().int(), position: z.number().int().nullable() })
        .optional()
        .describe('A new generation being built beside the live one'),
      error: z.string().optional().describe("The projection's last error, when it has one"),
    }),
  ),
});

export const healthComponents = { Health: healthResponse, Readiness: readyResponse, Liveness: liveResponse };

export const healthRouteDocs = (): RouteDoc[] => [
  {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Whether the service can answer',
    tags: ['health'],
    responses: {
      200: { description: 'The event store is open, the read models have caught up and every projection is running.', body: healthResponse },
      503: {
        description: 'The event store is closed, a projection stopped, or the read models are still catching up (then with Retry-After); the body tells which.',
        body: healthResponse,
        headers: retryAfter,
      },
    },
  },
  {
    method: 'get',
    path: '/health/live',
    operationId: 'getLiveness',
    summary: 'Whether the process answers (the liveness probe: restart it when this fails)',
    tags: ['health'],
    responses: { 200: { description: 'Always, while the process answers.', body: liveResponse, example: { status: 'live' } } },
  },
  {
    method: 'get',
    path: '/health/ready',
    operationId: 'getReadiness',
    summary: 'Whether the service may take traffic (the readiness probe)',
    tags: ['health'],
    responses: {
      200: { description: 'The event store is open and the read models have caught up with the log.', body: readyResponse },
      503: {
        description: 'The event store is closed, or the read models are still catching up (then with Retry-After).',
        body: readyResponse,
        headers: retryAfter,
      },
    },
  },
];
