import Router from '@koa/router';
import type { Runtime } from '../../runtime.ts';
import { schema } from '../server.ts';
import { graphiqlAssets, graphiqlAssetsPath } from './graphiql-assets.ts';
import { introspectionOf, introspectionPath, schemaBeforeTokenScript } from './schema-before-token.ts';

/**
 * GET /graphql/graphiql/<file>: GraphiQL's script, stylesheet, icon and editor workers, where GraphiQL
 * is served (outside production). Static files: no token needed, as for the page itself.
 */
export const graphiqlRoutes = (runtime: Pick<Runtime, 'config'>): Router => {
  const router = new Router();
  if (runtime.config.production) return router;
  let introspection: string | undefined;
  router.get(introspectionPath, (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = introspection ??= introspectionOf(schema);
  });
  router.get(`${graphiqlAssetsPath}/schema-before-token.js`, (ctx) => {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = schemaBeforeTokenScript;
  });
  router.get(`${graphiqlAssetsPath}/:file`, (ctx, next) => {
    const asset = graphiqlAssets.get(ctx.params.file ?? '');
    if (asset === undefined) return next();
    ctx.type = asset.type;
    // Versioned with the package: a day's caching spares a reload of the 7 MB script.
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = asset.body;
  });
  return router;
};
