import type { ParameterizedContext } from 'koa';

type Layer = { path: string | RegExp; methods: string[] };

/**
 * The pattern of the route the request went to (`/api/get-sale-info-by-increment-id/:incrementId`),
 * from the layers the router matched; `unmatched` when none did. Logs and metrics name requests by
 * it: the raw path carries IDs and e-mail addresses, and would make one metric series per order.
 * (The router's `_matchedRoute` will not do: a router's own middleware, such as its authentication,
 * overwrites it with its catch-all pattern, so a 401 would lose its route.)
 */
export const matchedRoute = (ctx: ParameterizedContext): string => {
  const routes = ((ctx as { matched?: Layer[] }).matched ?? []).filter((layer) => layer.methods.length > 0);
  const route = routes.findLast((layer) => layer.methods.includes(ctx.method)) ?? routes.at(-1);
  return route === undefined ? 'unmatched' : String(route.path);
};
