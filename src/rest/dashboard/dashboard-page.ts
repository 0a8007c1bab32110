import type { RouterMiddleware } from '@koa/router';
import { dashboardAssetsPath } from './dashboard-assets.ts';

/**
 * The dashboards' page: one document for every dashboard path, its script and stylesheet from the
 * service itself (dashboard-assets.ts). The script reads only the GraphQL API, with the token the
 * person pastes, kept in the tab's sessionStorage (never in a URL, a cookie or localStorage).
 */

/** Script, style and requests from this origin only: no inline script, no CDN, no other host. */
export const dashboardPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const page = `<!doctype html>
<html lang="fr">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <link rel="icon" href="data:,">
  <title>Tableaux de bord</title>
  <link rel="stylesheet" href="${dashboardAssetsPath}/dashboard.css">
  <script type="module" src="${dashboardAssetsPath}/dashboard.js"></script>
</head>
<body>
<div id="app"><main><h1>Tableaux de bord</h1><p>Chargement…</p><noscript>Ces tableaux de bord ont besoin de JavaScript.</noscript></main></div>
</body>
</html>
`;

export const dashboardPage: RouterMiddleware = (ctx) => {
  ctx.set('Content-Security-Policy', dashboardPolicy);
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page;
};
