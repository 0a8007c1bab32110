import { z } from 'zod';
import type { RouteDoc } from './document.ts';

/** GET /health, as health-routes.ts answers it. */

export const healthResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  eventStore: z.enum(['open', 'closed']),
  projections: z.array(
    z.object({
      name: z.string(),
      position: z.number().int().nullable().describe('Position of the last event applied; null before the first one'),
      caughtUp: z.boolean(),
      running: z.boolean(),
      error: z.string().optional().describe("The projection's last error, when it has one"),
    }),
  ),
});

export const healthComponents = { Health: healthResponse };

export const healthRouteDocs = (): RouteDoc[] => [
  {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Whether the service can answer',
    tags: ['health'],
    responses: {
      200: { description: 'The event store is open and every projection is running.', body: healthResponse },
      503: { description: 'The event store is closed or a projection stopped; the body tells which.', body: healthResponse },
    },
  },
];
