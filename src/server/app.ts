import Koa from 'koa';
import type { Runtime } from '../runtime.ts';
import { accessLog } from '../rest/middleware/access-log.ts';
import { apiGroupByPath } from '../rest/middleware/api-group.ts';
import { errorHandler } from '../rest/middleware/error-handler.ts';
import { hsts } from '../rest/middleware/hsts.ts';
import { notFound } from '../rest/middleware/not-found.ts';
import { requestContext } from '../rest/middleware/request-context.ts';
import { requestMetrics } from '../rest/middleware/request-metrics.ts';
import { zonedTimestamps } from '../rest/middleware/zoned-timestamps.ts';
import { whileCatchingUp } from '../rest/middleware/while-catching-up.ts';
import { readYourWrites } from '../http/read-your-writes.ts';
import { applicationRouters } from './application-routers.ts';
import { routersByPrefix } from './routers-by-prefix.ts';

/** The HTTP application over an opened runtime: its middleware top to bottom, then its routers (application-routers.ts). */
export const createRuntimeApp = (runtime: Runtime): Koa => {
  const app = new Koa();
  app.silent = true; // errors are logged once, by the error handler
  app.proxy = runtime.config.trustProxy; // X-Forwarded-* only from a proxy we were told to trust

  app.use(accessLog({ log: runtime.log }));
  app.use(requestMetrics(runtime.metrics));
  app.use(errorHandler({ log: runtime.log }));
  app.use(requestContext());
  app.use(hsts({ maxAge: runtime.config.hstsMaxAge }));
  app.use(apiGroupByPath());
  app.use(notFound());
  app.use(whileCatchingUp({ ready: runtime.projections.isReady, progress: runtime.projections.progress }));
  app.use(zonedTimestamps(runtime.config.planningTimezone));
  // What a route wrote is in the read models before its answer leaves (REST and GraphQL alike).
  app.use(readYourWrites(runtime.projections));

  app.use(routersByPrefix(applicationRouters(runtime)));

  return app;
};
