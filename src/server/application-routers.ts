import type Router from '@koa/router';
import { graphiqlRoutes } from '../graphql/graphiql/graphiql-routes.ts';
import { graphqlRoutes } from '../graphql/routes.ts';
import type { Runtime } from '../runtime.ts';
import { auditRoutes } from '../rest/audit/routes.ts';
import { chatbotRoutes } from '../rest/chatbot/routes.ts';
import { dashboardRoutes } from '../rest/dashboard/routes.ts';
import { customerRoutes } from '../rest/core/customers/routes.ts';
import { invoiceRoutes } from '../rest/core/invoicing/routes.ts';
import { eInvoicingRoutes } from '../rest/core/e-invoicing/routes.ts';
import { leadRoutes } from '../rest/core/leads/routes.ts';
import { orderRoutes } from '../rest/core/orders/routes.ts';
import { saleActionRoutes } from '../rest/core/sale-actions/routes.ts';
import { coreSaleRoutes } from '../rest/core/sales/routes.ts';
import { coreSavRoutes } from '../rest/core/sav/routes.ts';
import { filesRoutes } from '../rest/files/routes.ts';
import { healthRoutes } from '../rest/health/health-routes.ts';
import { homeRoutes } from '../rest/home/routes.ts';
import { metricsRoutes } from '../rest/metrics/metrics-routes.ts';
import { openApiRoutes } from '../rest/openapi/routes.ts';
import { supplierRoutes } from '../rest/supplier/routes.ts';

/**
 * The routers of the application, in the order they are tried (app.ts). One list, so that the spec
 * comparing the routes with the OpenAPI document reads the routes the application really serves.
 */
export const applicationRouters = (runtime: Runtime): Router[] => [
  homeRoutes(),
  healthRoutes({ storeOpen: runtime.isOpen, projections: runtime.projections, platform: runtime.config.platform ? 'configured' : 'off' }),
  metricsRoutes(runtime),
  supplierRoutes(runtime),
  chatbotRoutes(runtime),
  coreSaleRoutes(runtime),
  saleActionRoutes(runtime),
  invoiceRoutes(runtime),
  eInvoicingRoutes(runtime),
  orderRoutes(runtime),
  leadRoutes(runtime),
  customerRoutes(runtime),
  coreSavRoutes(runtime),
  filesRoutes(runtime),
  auditRoutes(runtime),
  openApiRoutes(runtime),
  graphqlRoutes(runtime),
  graphiqlRoutes(runtime),
  dashboardRoutes(),
];
