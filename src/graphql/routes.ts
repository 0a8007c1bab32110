import Router from '@koa/router';
import type { Middleware } from 'koa';
import { shouldRenderGraphiQL } from 'graphql-yoga';
import { jsonBody } from '../http/json-body.ts';
import type { Runtime } from '../runtime.ts';
import { analystGuard } from './analyst-guard.ts';
import type { GraphqlContext } from './context.ts';
import { rateLimit } from './rate-limit.ts';
import { createGraphqlServer, graphqlPath } from './server.ts';

/**
 * `/graphql` in the Koa app. The body is read once the caller is authenticated, within the limits
 * of every body (http/json-body.ts), and handed as text to the GraphQL server in a fetch
 * Request rebuilt from the Koa context, with the authenticated caller as the operation's context.
 */
export const graphqlRoutes = (runtime: Runtime): Router => {
  const yoga = createGraphqlServer(runtime);
  const guard = analystGuard(runtime);
  const limit = rateLimit({ perMinute: runtime.config.graphqlRateLimit });

  const serve: Middleware = async (ctx) => {
    const hasBody = ctx.method === 'POST';
    const body = hasBody ? (ctx.request.rawBody ?? '') : undefined;
    const headers = new Headers();
    for (const [name, value] of Object.entries(ctx.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(', '));
    }
    const context: GraphqlContext = { runtime, commandContext: ctx.state.commandContext, token: ctx.state.token, writes: ctx.state };
    // The server's own Request class reads a text body as it is; Node's would stream it through web streams.
    const request = new yoga.fetchAPI.Request(`http://localhost${ctx.url}`, { method: ctx.method, headers, ...(body !== undefined && { body }) });
    const response = await yoga.fetch(request, context);
    ctx.status = response.status;
    response.headers.forEach((value, name) => ctx.set(name, value));
    ctx.body = Buffer.from(await response.arrayBuffer());
  };

  // GraphiQL is a static page: a browser asking for it needs no token (the queries it sends do).
  const graphiql: Middleware = async (ctx, next) => {
    const request = new yoga.fetchAPI.Request(`http://localhost${ctx.url}`, { method: ctx.method, headers: { accept: ctx.get('accept') } });
    if (!runtime.config.production && shouldRenderGraphiQL(request)) return serve(ctx, next);
    return guard(ctx, () => limit(ctx, () => serve(ctx, next)));
  };

  const router = new Router();
  router.get(graphqlPath, graphiql);
  router.post(graphqlPath, guard, limit, jsonBody(), serve);
  return router;
};
