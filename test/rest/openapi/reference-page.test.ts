import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';
import { getFile } from '../files/files-client.ts';

const swaggerUiDist = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

describe('GET /docs, the API reference page', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api.close());

  it('when opened without a token, it is an HTML page over /openapi.json whose scripts and styles are all served here', async () => {
    const page = await api.request.get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toHaveLength(4);
    for (const asset of assets) {
      // No CDN: every file of the page comes from this service.
      expect(asset).toMatch(/^\/docs\/assets\//);
      const file = await getFile(api, asset);
      expect(file.status, asset).toBe(200);
      // The package's own files, byte for byte; init.js, the page's own, is read below.
      const name = path.basename(asset);
      if (name !== 'init.js') expect(Buffer.compare(file.body as Buffer, await readFile(path.join(swaggerUiDist, name))), asset).toBe(0);
    }
    const init = await api.request.get('/docs/assets/init.js');
    expect(init.text).toContain("url: '/openapi.json'");
    const bundle = await api.request.get('/docs/assets/swagger-ui-bundle.js');
    expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(bundle.text).toContain('SwaggerUIBundle');
  });

  it('when another file of the package or a path outside it is asked for, the answer is 404 and nothing is read', async () => {
    for (const file of ['index.html', 'package.json', '..%2F..%2Fpackage.json', 'swagger-ui.js.map']) {
      const response = await api.request.get(`/docs/assets/${file}`);
      expect(response.status, file).toBe(404);
      expect(response.body, file).toMatchObject({ success: false, error: 'Not Found' });
    }
  });
});
