import Router from '@koa/router';
import type { Runtime } from '../../runtime.ts';
import { chatbotComponents, chatbotRouteDocs } from './chatbot-paths.ts';
import { coreSavComponents, coreSavRouteDocs } from './core-sav-paths.ts';
import { buildOpenApiDocument, type OpenApiDocument } from './document.ts';
import { filesComponents, filesRouteDocs } from './files-paths.ts';
import { healthComponents, healthRouteDocs } from './health-paths.ts';
import { supplierComponents, supplierRouteDocs } from './supplier-paths.ts';

/** The document of the supplier, label file, chatbot and health routes and of the SAV status changes, for a service answering at `baseUrl`. */
export const serviceOpenApiDocument = (baseUrl: string): OpenApiDocument =>
  buildOpenApiDocument({
    baseUrl,
    routes: [...healthRouteDocs(), ...supplierRouteDocs(), ...filesRouteDocs(), ...chatbotRouteDocs(), ...coreSavRouteDocs()],
    components: { ...healthComponents, ...supplierComponents, ...filesComponents, ...chatbotComponents, ...coreSavComponents },
  });

/** GET /openapi.json, without authentication: clients generate their code from it. Built once. */
export const openApiRoutes = (runtime: Runtime): Router => {
  const router = new Router();
  const document = serviceOpenApiDocument(runtime.config.baseUrl);
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = document;
  });
  return router;
};
