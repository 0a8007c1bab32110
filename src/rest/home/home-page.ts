import { createHash } from 'node:crypto';
import type { RouterMiddleware } from '@koa/router';

/**
 * GET /: where a person who opened the service's address goes next: the API reference, GraphiQL, the
 * health probes, which header each API group takes, and the command that issues a token. A page of
 * text and links (no script: a strict policy holds); JSON for a client that asks for it.
 */

type Link = { href: string; title: string; description: string };

const links: readonly Link[] = [
  { href: '/docs', title: 'API reference', description: 'every REST route with its parameters, answers and errors (Swagger UI over /openapi.json)' },
  { href: '/openapi.json', title: 'OpenAPI document', description: 'to generate a client' },
  { href: '/graphql', title: 'GraphiQL', description: 'the GraphQL API of analysts, auditors and staff, in the browser' },
  {
    href: '/dashboard',
    title: 'Dashboards',
    description: 'revenue, suppliers, after-sales, a sale and the event feed, in French, with an analyst, auditor or core token',
  },
  { href: '/health', title: 'Health', description: 'the event store and every projection; /health/live and /health/ready for probes' },
];

const groups = [
  { group: 'supplier-a, supplier-b', paths: '/api/supplier-a/…, /api/supplier-b/…, /api/files/…', header: 'Authorization: Bearer <token>' },
  { group: 'core', paths: '/api/… (sales, SAVs, imports, leads)', header: 'Authorization: Bearer <token>' },
  { group: 'chatbot', paths: '/api/sale/details, /api/Customer/details, /api/sav, /api/customer/sav-status, /api/product', header: 'X-API-Token: <token>' },
  { group: 'analyst, auditor, core', paths: '/graphql', header: 'Authorization: Bearer <token>' },
] as const;

export const tokenCommand = 'npm run --silent cli -- token issue --group <group>';

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const style =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}code{background:#f2f2f2;padding:0 .25rem}table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}a{color:#0645ad}';
/** The one style block the page has is allowed by its hash: no other style, and no script at all. */
const policy = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Order, after-sales and supplier service</title>
  <style>${style}</style>
</head>
<body>
<main>
  <h1>Order, after-sales and supplier service</h1>
  <p>Orders, after-sales requests (SAV) and the suppliers' order lines, for the retailer's suppliers, chatbot, staff and analysts.</p>
  <h2>Where to go</h2>
  <ul>
${links.map((link) => `    <li><a href="${link.href}">${escape(link.title)}</a>: ${escape(link.description)}</li>`).join('\n')}
  </ul>
  <h2>Which header each API takes</h2>
  <table>
    <thead><tr><th>Token group</th><th>Paths</th><th>Header</th></tr></thead>
    <tbody>
${groups.map((row) => `      <tr><td>${escape(row.group)}</td><td>${escape(row.paths)}</td><td><code>${escape(row.header)}</code></td></tr>`).join('\n')}
    </tbody>
  </table>
  <h2>A token</h2>
  <p>From the service's folder: <code>${escape(tokenCommand)}</code> (groups: supplier-a, supplier-b, core, chatbot, analyst, auditor). The token is printed once, on the last line.</p>
</main>
</body>
</html>
`;

export const homePage: RouterMiddleware = (ctx) => {
  ctx.set('Content-Security-Policy', policy);
  if (ctx.accepts('html', 'json') === 'json') {
    ctx.body = { service: 'Order, after-sales and supplier service', links, apiGroups: groups, tokenCommand };
    return;
  }
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page;
};
