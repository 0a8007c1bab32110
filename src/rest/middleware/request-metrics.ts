import type { Middleware } from 'koa';
import type { Metrics } from '../../metrics/metrics.ts';
import { matchedRoute } from './matched-route.ts';

/** Counts and times every request by method, route pattern and status (GET /metrics). */
export const requestMetrics =
  (metrics: Pick<Metrics, 'observeRequest'>): Middleware =>
  async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      metrics.observeRequest({ method: ctx.method, route: matchedRoute(ctx), status: ctx.status, seconds: (performance.now() - started) / 1000 });
    }
  };
