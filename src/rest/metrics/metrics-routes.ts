import Router from '@koa/router';
import type { Runtime } from '../../runtime.ts';
import { metricsGuard } from './metrics-guard.ts';

/** GET /metrics: the process's metrics in the Prometheus text format (src/metrics/), behind metricsGuard. */
export const metricsRoutes = (runtime: Pick<Runtime, 'config' | 'accessTokens' | 'metrics'>): Router => {
  const router = new Router();
  router.get('/metrics', metricsGuard(runtime), async (ctx) => {
    ctx.type = runtime.metrics.registry.contentType;
    ctx.body = await runtime.metrics.registry.metrics();
  });
  return router;
};
