import Koa from 'koa';
import { graphiqlRoutes } from '../graphql/graphiql/graphiql-routes.ts';
import { graphqlRoutes } from '../graphql/routes.ts';
import type { Runtime } from '../runtime.ts';
import { chatbotRoutes } from './chatbot/routes.ts';
import { invoiceRoutes } from './core/invoice/routes.ts';
import { leadRoutes } from './core/leads/routes.ts';
import { orderRoutes } from './core/orders/routes.ts';
import { saleActionRoutes } from './core/sale-actions/routes.ts';
import { coreSaleRoutes } from './core/sales/routes.ts';
import { coreSavRoutes } from './core/sav/routes.ts';
import { filesRoutes } from './files/routes.ts';
import { healthRoutes } from './health/health-routes.ts';
import { supplierRoutes } from './supplier/routes.ts';
import { openApiRoutes } from './openapi/routes.ts';
import { metricsRoutes } from './metrics/metrics-routes.ts';
import { accessLog } from './middleware/access-log.ts';
import { apiGroupByPath } from './middleware/api-group.ts';
import { errorHandler } from './middleware/error-handler.ts';
import { hsts } from './middleware/hsts.ts';
import { mediaBodyLimitMib } from './media-input.ts';
import { jsonBody } from './middleware/json-body.ts';
import { notFound } from './middleware/not-found.ts';
import { requestContext } from './middleware/request-context.ts';
import { requestMetrics } from './middleware/request-metrics.ts';
import { zonedTimestamps } from './middleware/zoned-timestamps.ts';
import { whileCatchingUp } from './middleware/while-catching-up.ts';
import { routersByPrefix } from './routers-by-prefix.ts';

/** The HTTP application over an opened runtime, read top to bottom like the table of routes. */
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
  // The SAV creations may carry photos and videos as data URLs (media-input.ts): a larger limit there only.
  app.use(jsonBody({ largerLimits: { '/api/sale-sav/create-for-sale-product': mediaBodyLimitMib, '/api/sav': mediaBodyLimitMib } }));
  app.use(zonedTimestamps(runtime.config.planningTimezone));

  const routers = [
    healthRoutes({ storeOpen: runtime.isOpen, projections: runtime.projections }),
    metricsRoutes(runtime),
    supplierRoutes(runtime),
    chatbotRoutes(runtime),
    coreSaleRoutes(runtime),
    saleActionRoutes(runtime),
    invoiceRoutes(runtime),
    orderRoutes(runtime),
    leadRoutes(runtime),
    coreSavRoutes(runtime),
    filesRoutes(runtime),
    openApiRoutes(runtime),
    graphqlRoutes(runtime),
    graphiqlRoutes(runtime),
  ];
  app.use(routersByPrefix(routers));

  return app;
};
