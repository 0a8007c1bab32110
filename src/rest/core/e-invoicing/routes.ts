import Router from '@koa/router';
import type { RouterMiddleware } from '@koa/router';
import { HttpError } from '../../../http/http-error.ts';
import { platformDocuments } from '../../../projections/e-invoicing/queries.ts';
import type { Runtime } from '../../../runtime.ts';
import { parseInput } from '../../parse-input.ts';
import { coreGuard } from '../core-auth.ts';
import { platformDocumentOf, platformDocumentsQuery } from './schemas.ts';

/**
 * GET /api/platform-documents: the e-invoices and days of e-reporting owed to the approved platform,
 * latest first, each with its transmission (pending, retrying with its last error, sent) and the last
 * status the platform gave it; and whether a platform is configured at all.
 */
const listPlatformDocuments =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const query = parseInput(platformDocumentsQuery, ctx.query, (field, issue) =>
      field === '' ? new HttpError(400, 'invalid_request', issue.message) : new HttpError(400, 'invalid_request', `${field}: ${issue.message}`),
    );
    const documents = await platformDocuments(runtime.readStore, { kind: query.kind, limit: query.limit ?? 50 });
    ctx.body = { platform: { configured: runtime.config.platform !== null }, documents: documents.map(platformDocumentOf) };
  };

/** What the service hands to the approved platform, for the back-office. */
export const eInvoicingRoutes = (runtime: Runtime): Router => {
  const router = new Router();
  router.use(...coreGuard(runtime));
  router.get('/api/platform-documents', listPlatformDocuments(runtime));
  return router;
};
