import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import { HttpError } from '../../http/http-error.ts';

/**
 * GET /docs: the API reference, Swagger UI over /openapi.json, served from the swagger-ui-dist
 * package: no CDN, so the page works where the service does (an intranet, offline). The page and its
 * initializer are ours (no inline script, so a strict CSP holds); the assets are the package's files,
 * read from disk on demand, a fixed list of them.
 */

const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const ownAssets = {
  'init.js': {
    type: 'text/javascript; charset=utf-8',
    body: `window.onload = () => {\n  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, tryItOutEnabled: false });\n};\n`,
  },
} as const;

const packageAssets = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
} as const;

export const referenceAssetParams = z.object({
  file: z.enum([...Object.keys(ownAssets), ...Object.keys(packageAssets)] as [string, ...string[]]).describe('One of the files of the reference page'),
});

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>SAV order service API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>
`;

export const referencePage: RouterMiddleware = (ctx) => {
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page;
};

const notFound = (file: string) => new HttpError(404, 'Not Found', `No reference file ${file}`);

export const referenceAsset: RouterMiddleware = async (ctx) => {
  const file = String(ctx.params.file);
  if (Object.hasOwn(ownAssets, file)) {
    const asset = ownAssets[file as keyof typeof ownAssets];
    ctx.type = asset.type;
    ctx.body = asset.body;
    return;
  }
  if (!Object.hasOwn(packageAssets, file)) throw notFound(file);
  ctx.type = packageAssets[file as keyof typeof packageAssets];
  // The package's version is in the lock file: a day's caching is safe, and the bundle is 1.5 MB.
  ctx.set('Cache-Control', 'public, max-age=86400');
  ctx.body = await readFile(join(distDir, file));
};
