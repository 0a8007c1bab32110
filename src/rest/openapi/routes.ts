import Router from '@koa/router';
import type { Runtime } from '../../runtime.ts';
import { auditComponents, auditRouteDocs } from './audit-paths.ts';
import { chatbotComponents, chatbotRouteDocs } from './chatbot-paths.ts';
import { coreCustomersComponents, coreCustomersRouteDocs } from './core-customers-paths.ts';
import { coreEInvoicingComponents, coreEInvoicingRouteDocs } from './core-e-invoicing-paths.ts';
import { coreOrdersComponents, coreOrdersRouteDocs } from './core-orders-paths.ts';
import { coreSaleActionsComponents, coreSaleActionsRouteDocs } from './core-sale-actions-paths.ts';
import { coreSalesComponents, coreSalesRouteDocs } from './core-sales-paths.ts';
import { coreSavOperationsComponents, coreSavOperationsRouteDocs } from './core-sav-operations-paths.ts';
import { coreSavComponents, coreSavRouteDocs } from './core-sav-paths.ts';
import { dashboardRouteDocs } from './dashboard-paths.ts';
import { buildOpenApiDocument, type OpenApiDocument } from './document.ts';
import { filesComponents, filesRouteDocs } from './files-paths.ts';
import { healthComponents, healthRouteDocs } from './health-paths.ts';
import { withIdempotencyKeys } from './idempotency-docs.ts';
import { metricsRouteDocs } from './metrics-paths.ts';
import { referenceAsset, referencePage } from './reference-page.ts';
import { referenceRouteDocs } from './reference-paths.ts';
import { savAppointmentComponents, savAppointmentRouteDocs } from './sav-appointment-paths.ts';
import { supplierComponents, supplierRouteDocs } from './supplier-paths.ts';
import { supplierWebhookMessages } from './supplier-webhook-paths.ts';

/** The document of every REST route, for a service answering at `baseUrl`. */
export const serviceOpenApiDocument = (baseUrl: string): OpenApiDocument =>
  buildOpenApiDocument({
    baseUrl,
    routes: withIdempotencyKeys([
      ...coreSalesRouteDocs(),
      ...coreSaleActionsRouteDocs(),
      ...coreOrdersRouteDocs(),
      ...coreCustomersRouteDocs(),
      ...coreEInvoicingRouteDocs(),
      ...coreSavOperationsRouteDocs(),
      ...coreSavRouteDocs(),
      ...savAppointmentRouteDocs(),
      ...supplierRouteDocs(),
      ...filesRouteDocs(),
      ...chatbotRouteDocs(),
      ...healthRouteDocs(),
      ...metricsRouteDocs(),
      ...referenceRouteDocs(),
      ...dashboardRouteDocs(),
      ...auditRouteDocs(),
    ]),
    components: {
      ...coreSalesComponents,
      ...coreSaleActionsComponents,
      ...coreOrdersComponents,
      ...coreCustomersComponents,
      ...coreEInvoicingComponents,
      ...coreSavOperationsComponents,
      ...coreSavComponents,
      ...savAppointmentComponents,
      ...healthComponents,
      ...supplierComponents,
      ...filesComponents,
      ...chatbotComponents,
      ...auditComponents,
    },
    webhooks: supplierWebhookMessages,
  });

/** GET /openapi.json and the reference page at /docs, without authentication: clients generate their code from it. Built once. */
export const openApiRoutes = (runtime: Runtime): Router => {
  const router = new Router();
  // Built at the first request for it, not at start (a tenth of a second of the time to ready).
  let document: OpenApiDocument | undefined;
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = document ??= serviceOpenApiDocument(runtime.config.baseUrl);
  });
  router.get('/docs', referencePage);
  router.get('/docs/assets/:file', referenceAsset);
  return router;
};
