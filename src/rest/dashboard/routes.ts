import Router from '@koa/router';
import { dashboardAssets, dashboardAssetsPath } from './dashboard-assets.ts';
import { dashboardPage, dashboardPolicy } from './dashboard-page.ts';

/** The dashboards' pages, for analysts, auditors and staff, read through GraphQL: no token to open the page itself. */
export const dashboardPaths = [
  '/dashboard',
  '/dashboard/overview',
  '/dashboard/sale',
  '/dashboard/after-sales',
  '/dashboard/suppliers',
  '/dashboard/events',
] as const;

export const dashboardRoutes = (): Router => {
  const router = new Router();
  for (const pagePath of dashboardPaths) router.get(pagePath, dashboardPage);
  router.get(`${dashboardAssetsPath}/:file`, async (ctx, next) => {
    const asset = (await dashboardAssets()).get(ctx.params.file ?? '');
    if (asset === undefined) return next();
    ctx.set('Content-Security-Policy', dashboardPolicy);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = asset.type;
    ctx.body = asset.body;
  });
  return router;
};
