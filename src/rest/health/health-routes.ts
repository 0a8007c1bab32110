import Router from '@koa/router';
import type { ProjectionStatus } from '../../projections/runner.ts';

export type HealthDeps = {
  storeOpen: () => boolean;
  projections: () => readonly ProjectionStatus[];
};

/**
 * GET /health: 200 when the event store is open and every projection is running, 503 otherwise,
 * with the detail either way (load balancers read the status, people read the body).
 */
export const healthRoutes = (deps: HealthDeps): Router => {
  const router = new Router();
  router.get('/health', (ctx) => {
    const projections = deps.projections();
    const storeOpen = deps.storeOpen();
    const healthy = storeOpen && projections.every((projection) => projection.running && !projection.lastError);
    ctx.status = healthy ? 200 : 503;
    ctx.body = {
      status: healthy ? 'ok' : 'unavailable',
      eventStore: storeOpen ? 'open' : 'closed',
      projections: projections.map(({ name, position, caughtUp, running, lastError }) => ({
        name,
        position,
        caughtUp,
        running,
        ...(lastError ? { error: String(lastError) } : {}),
      })),
    };
  });
  return router;
};
