import { css, editorWorkerService, favicon, graphqlWorker, js, jsonWorker } from '@graphql-yoga/render-graphiql/graphiql';

/**
 * GraphiQL's bundle, as the npm package ships it (@graphql-yoga/render-graphiql), served by the
 * service itself under /graphql/graphiql/: no CDN, so the page works on a network without the
 * internet and loads nothing from another origin. The package inlines these into one 9 MB page;
 * served apart, the browser caches them and the page stays small.
 */
export const graphiqlAssetsPath = '/graphql/graphiql';

export type GraphiqlAsset = { type: string; body: string | Buffer };

const script = (body: string): GraphiqlAsset => ({ type: 'application/javascript; charset=utf-8', body });

const faviconBytes = Buffer.from(favicon.slice(favicon.indexOf(',') + 1), 'base64');

/** By file name under graphiqlAssetsPath. */
export const graphiqlAssets: ReadonlyMap<string, GraphiqlAsset> = new Map([
  ['graphiql.js', script(js)],
  ['graphiql.css', { type: 'text/css; charset=utf-8', body: css }],
  ['favicon.ico', { type: 'image/x-icon', body: faviconBytes }],
  // The editor's web workers, by the label Monaco asks them by (graphiql-page.ts).
  ['editor-worker.js', script(editorWorkerService)],
  ['json-worker.js', script(jsonWorker)],
  ['graphql-worker.js', script(graphqlWorker)],
]);
