import Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import type { ProjectionEngine } from '../../projections/engine/engine.ts';

export type HealthDeps = {
  storeOpen: () => boolean;
  projections: Pick<ProjectionEngine, 'status' | 'progress' | 'isReady'>;
  /** Whether an approved platform is configured (PLATFORM_URL): said, not judged; off, nothing is handed to one. */
  platform: 'configured' | 'off';
};

/** Where the read models stand against the log (position, head, events/s, estimated seconds left). */
const readModelsOf = (deps: HealthDeps) => {
  const progress = deps.projections.progress();
  return {
    ready: deps.projections.isReady(),
    position: progress.position,
    head: progress.head,
    eventsPerSecond: Math.round(progress.eventsPerSecond),
    etaSeconds: progress.etaSeconds,
  };
};

/**
 * The projections that have stopped on an event they could not apply (their read models frozen at
 * that event, see projections/engine/projection-slot.ts), with why: what this instance can no
 * longer show, whatever else it answers.
 */
const stoppedOf = (deps: HealthDeps): { name: string; error: string }[] =>
  deps.projections
    .status()
    .filter((projection) => !projection.running)
    .map((projection) => ({ name: projection.name, error: String(projection.lastError ?? 'stopped') }));

const retryWhileCatchingUp = (ctx: ParameterizedContext, readModels: ReturnType<typeof readModelsOf>): void => {
  if (!readModels.ready) ctx.set('Retry-After', String(Math.min(Math.max(readModels.etaSeconds ?? 5, 1), 120)));
};

/**
 * The probes of orchestrators and load balancers (they read the status; people read the body):
 * - GET /health/live: the process is up and answering (200, always): restart it when this fails;
 * - GET /health/ready: 200 once the event store is open, the read models have caught up with the
 *   log and every projection runs; 503 with the catch-up progress before, and 503 naming each
 *   projection that has stopped (its read model no longer follows the log): send it traffic only when
 *   this answers 200; its body also says whether an approved platform is configured (`platform`:
 *   `off` when PLATFORM_URL is unset, and then no e-invoice or e-reporting is sent), which does not
 *   change the status;
 * - GET /health (kept for the clients that use it): ready, and every projection running without
 *   error, with each projection's detail.
 */
export const healthRoutes = (deps: HealthDeps): Router => {
  const router = new Router();
  router.get('/health/live', (ctx) => {
    ctx.body = { status: 'live' };
  });
  router.get('/health/ready', (ctx) => {
    const storeOpen = deps.storeOpen();
    const readModels = readModelsOf(deps);
    const stopped = stoppedOf(deps);
    const ready = storeOpen && readModels.ready && stopped.length === 0;
    ctx.status = ready ? 200 : 503;
    retryWhileCatchingUp(ctx, readModels);
    ctx.body = {
      status: ready ? 'ready' : readModels.ready ? 'unavailable' : 'starting',
      eventStore: storeOpen ? 'open' : 'closed',
      readModels,
      ...(stopped.length > 0 && { stoppedProjections: stopped }),
      platform: deps.platform,
    };
  });
  router.get('/health', (ctx) => {
    const projections = deps.projections.status();
    const storeOpen = deps.storeOpen();
    const readModels = readModelsOf(deps);
    const healthy = storeOpen && readModels.ready && projections.every((projection) => projection.running && !projection.lastError);
    ctx.status = healthy ? 200 : 503;
    retryWhileCatchingUp(ctx, readModels);
    ctx.body = {
      status: healthy ? 'ok' : readModels.ready ? 'unavailable' : 'starting',
      eventStore: storeOpen ? 'open' : 'closed',
      readModels,
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
