import { HttpError } from '../../http/http-error.ts';
import { failure } from './core-failures.ts';
import type { RouteDoc } from './document.ts';

/** GET /metrics (metrics-routes.ts): the Prometheus text format, for the scraper and the analysts. */
export const metricsRouteDocs = (): RouteDoc[] => [
  {
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    summary: 'The metrics of this process, in the Prometheus text format',
    description: 'Requests by route pattern and status, event-store append latency, projection lag, the label and lead-mail backlogs, and the process metrics.',
    tags: ['metrics'],
    security: 'metricsBearer',
    responses: {
      200: { description: 'The metrics, one sample per line.', file: 'text/plain' },
      401: failure(
        'No Bearer token, or neither METRICS_TOKEN nor an analyst token.',
        new HttpError(401, 'Unauthorized', 'A Bearer token is required: METRICS_TOKEN or an analyst token'),
      ),
    },
  },
];
