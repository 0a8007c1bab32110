import Router from '@koa/router';
import type { ProjectionEngine } from '../../projections/engine/engine.ts';

export type HealthDeps = {
  storeOpen: () => boolean;
  projections: Pick<ProjectionEngine, 'status' | 'progress' | 'isReady'>;
};

/**
 * GET /health: 200 when the event store is open, the read models have caught up with the log and
 * every projection is running; 503 otherwise, with the detail either way (load balancers read the
 * status, people read the body). While the read models catch up, `readModels` tells how far they
 * are (position, head, events/s, estimated seconds left).
 */
export const healthRoutes = (deps: HealthDeps): Router => {
  const router = new Router();
  router.get('/health', (ctx) => {
    const projections = deps.projections.status();
    const progress = deps.projections.progress();
    const storeOpen = deps.storeOpen();
    const ready = deps.projections.isReady();
    const healthy = storeOpen && ready && projections.every((projection) => projection.running && !projection.lastError);
    ctx.status = healthy ? 200 : 503;
    if (!ready) ctx.set('Retry-After', String(Math.min(Math.max(progress.etaSeconds ?? 5, 1), 120)));
    ctx.body = {
      status: healthy ? 'ok' : ready ? 'unavailable' : 'starting',
      eventStore: storeOpen ? 'open' : 'closed',
      readModels: {
        ready,
        position: progress.position,
        head: progress.head,
        eventsPerSecond: Math.round(progress.eventsPerSecond),
        etaSeconds: progress.etaSeconds,
      },
      projections: projections.map(({ name, version, generation, position, caughtUp, running, lastError, rebuilding }) => ({
        name,
        version,
        generation,
        position,
        caughtUp,
        running,
        ...(rebuilding ? { rebuilding } : {}),
        ...(lastError ? { error: String(lastError) } : {}),
      })),
    };
  });
  return router;
};
