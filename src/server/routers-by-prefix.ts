import type Router from '@koa/router';
import type { Middleware } from 'koa';
import compose from 'koa-compose';

/**
 * The application's routers, each tried only by the requests under the first two segments of one of
 * its routes (`/api/sale`, `/health`): a router matches the path against every one of its routes in
 * turn, and trying a dozen routers one after the other cost a request more than all its middleware
 * together. Matching stays the routers' own (case-insensitive, trailing slash optional, as they are
 * set up); a router's `use` middleware runs only when one of its routes matches, as before.
 *
 * Like a router's own `routes()`, the middleware exposes its layers as `router.stack`: that is where
 * tools that instrument Koa find the routes (OpenTelemetry's Koa instrumentation wraps each route's
 * handlers there, in place, to give them a span named by the route pattern).
 */
export const routersByPrefix = (routers: readonly Router[]): Middleware => {
  const byPrefix = new Map<string, Router[]>();
  for (const router of routers) {
    for (const layer of router.stack) {
      // A router's own middleware (no method) belongs to its routes.
      if (layer.methods.length === 0) continue;
      const prefix = typeof layer.path === 'string' ? prefixOf(layer.path) : undefined;
      if (prefix === undefined || /[:(*]/.test(prefix)) throw new Error(`A route's first two segments must be fixed: ${String(layer.path)}`);
      const list = byPrefix.get(prefix) ?? [];
      if (!list.includes(router)) list.push(router);
      byPrefix.set(prefix, list);
    }
  }
  const chains = new Map<string, Middleware>(
    [...byPrefix].map(([prefix, list]) => [prefix, compose(list.flatMap((router) => [router.routes(), router.allowedMethods()]) as Middleware[])]),
  );
  const dispatch: Middleware = (ctx, next) => {
    const chain = chains.get(prefixOf(ctx.path));
    return chain ? chain(ctx, next) : next();
  };
  return Object.assign(dispatch, { router: { stack: routers.flatMap((router) => router.stack).filter((layer) => layer.methods.length > 0) } });
};

/** `/api/sale/12` → `/api/sale`, `/health/` → `/health`, in lower case. */
const prefixOf = (path: string): string => {
  const second = path.indexOf('/', 1);
  const third = second < 0 ? -1 : path.indexOf('/', second + 1);
  return (third < 0 ? path : path.slice(0, third)).replace(/\/$/, '').toLowerCase();
};
