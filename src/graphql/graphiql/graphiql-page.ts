import type { GraphiQLOptions } from 'graphql-yoga';
import { graphiqlAssetsPath } from './graphiql-assets.ts';

/** A value written into an inline script: `</script>` in a string must not close it. */
const inlineJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The GraphiQL page (graphql-yoga's `renderGraphiQL`): the markup of @graphql-yoga/render-graphiql,
 * with its stylesheet, script, icon and editor workers referenced from this service
 * (graphiql-assets.ts) instead of inlined or fetched from a CDN.
 */
export const renderLocalGraphiQL = (options?: GraphiQLOptions): string =>
  /* HTML */ `<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>${escapeHtml(options?.title ?? 'GraphiQL')}</title>
        <link rel="icon" href="${graphiqlAssetsPath}/favicon.ico" />
        <link rel="stylesheet" href="${graphiqlAssetsPath}/graphiql.css" />
      </head>
      <body id="body" class="no-focus-outline">
        <noscript>You need to enable JavaScript to run this app.</noscript>
        <div id="root"></div>
        <script>
          const workers = {
            editorWorkerService: '${graphiqlAssetsPath}/editor-worker.js',
            json: '${graphiqlAssetsPath}/json-worker.js',
            graphql: '${graphiqlAssetsPath}/graphql-worker.js',
          };
          self['MonacoEnvironment'] = { globalAPI: false, getWorkerUrl: (moduleId, label) => workers[label] };
        </script>
        <script src="${graphiqlAssetsPath}/graphiql.js"></script>
        <script src="${graphiqlAssetsPath}/schema-before-token.js"></script>
        <script>
          YogaGraphiQL.renderYogaGraphiQL(window.document.querySelector('#root'), ${inlineJson(options ?? {})});
        </script>
      </body>
    </html> `;
