import type { Middleware } from 'koa';
import type { CatchUpProgress } from '../../projections/engine/progress.ts';
import { HttpError } from '../../http/http-error.ts';

/** What a client is told while the read models catch up, per API group. */
const texts = {
  core: ['Service Unavailable', 'The service is starting: its read models are catching up with the event log. Retry shortly.'],
  supplier: ['Service Unavailable', 'The service is starting: its read models are catching up with the event log. Retry shortly.'],
  chatbot: ['Service indisponible', 'Le service démarre : réessayez dans quelques instants.'],
} as const;

const served = /^\/(api\/|graphql(\/|$))/;

/**
 * Until the read models have caught up with the log (a first start, or the events appended while the
 * service was down), the API routes answer 503 with `Retry-After`, in their group's envelope: an
 * answer read from half-built read models would be wrong, and tokens themselves are read models.
 * `/health` tells the progress meanwhile.
 */
export const whileCatchingUp =
  (deps: { ready: () => boolean; progress: () => CatchUpProgress }): Middleware =>
  async (ctx, next) => {
    if (deps.ready() || !served.test(ctx.path)) return next();
    const { etaSeconds } = deps.progress();
    ctx.set('Retry-After', String(Math.min(Math.max(etaSeconds ?? 5, 1), 120)));
    if (ctx.path.startsWith('/graphql')) {
      ctx.status = 503;
      ctx.body = { errors: [{ message: texts.core[1], extensions: { code: 'SERVICE_UNAVAILABLE' } }] };
      return;
    }
    const [error, message] = texts[(ctx.state.apiGroup as keyof typeof texts | undefined) ?? 'core'];
    throw new HttpError(503, error, message);
  };
