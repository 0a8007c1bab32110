import { execFile } from 'node:child_process';
import { access, mkdtemp, readFile, rm, copyFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeApp } from '../../src/server/app.ts';
import { startApi, type ApiHarness } from '../support/api-harness.ts';

/**
 * The pages people open in a browser, opened by a real one: Debian's Chromium, headless, with every
 * host name but the service's unresolvable (a machine without internet: a page that needed a CDN
 * would stay blank). `--dump-dom` gives the document once its scripts have run (virtual time lets
 * them finish); `--screenshot` the picture. UPDATE_SCREENSHOTS=1 writes the pictures to docs/.
 */

const run = promisify(execFile);
const docsDir = path.resolve(import.meta.dirname, '../../docs');

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

const chromium = (url: string, ...args: string[]) =>
  run(
    'chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      '--virtual-time-budget=20000',
      '--window-size=1280,900',
      ...args,
      url,
    ],
    { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
  );

describe('the pages people open in a browser, offline', () => {
  let api: ApiHarness;
  let server: http.Server;
  let base: string;
  let shots: string;

  beforeAll(async () => {
    api = await startApi();
    server = http.createServer(createRuntimeApp(api.runtime).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    shots = await mkdtemp(path.join(tmpdir(), 'screenshots-'));
  });
  afterAll(async () => {
    server?.close();
    await api?.close();
    await rm(shots, { recursive: true, force: true });
  });

  const screenshot = async (url: string, name: string): Promise<void> => {
    const file = path.join(shots, name);
    // Headless Chromium on a loaded machine sometimes exits without having written the screenshot
    // (its capture timed out): asked again, up to three times, its output kept for the failure.
    const said: string[] = [];
    for (let attempt = 0; attempt < 3 && !(await exists(file)); attempt++) {
      const { stderr } = await chromium(url, `--screenshot=${file}`);
      said.push(stderr);
    }
    if (!(await exists(file))) throw new Error(`Chromium wrote no screenshot of ${url}:\n${said.join('\n---\n')}`);
    const png = await readFile(file);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    if (process.env.UPDATE_SCREENSHOTS === '1') await copyFile(file, path.join(docsDir, name));
  };

  it('when / is opened, the home page links the reference, GraphiQL and the health check, and names the token command', { timeout: 120_000 }, async () => {
    const { stdout: dom } = await chromium(`${base}/`, '--dump-dom');

    for (const href of ['/docs', '/graphql', '/health']) expect(dom).toContain(`href="${href}"`);
    expect(dom).toContain('X-API-Token');
    expect(dom).toContain('token issue --group');
  });

  it('when /docs is opened, the reference renders the routes of every group from the service alone', { timeout: 120_000 }, async () => {
    const { stdout: dom } = await chromium(`${base}/docs`, '--dump-dom');

    expect(dom).toContain('swagger-ui');
    for (const route of ['/api/supplier-a/get-sales', '/api/sale/details/{incrementId}', '/api/sale-sav/create-for-sale-product', '/health/ready']) {
      expect(dom).toContain(route);
    }
    expect(dom.match(/class="opblock /g)?.length ?? 0).toBeGreaterThanOrEqual(40);
    await screenshot(`${base}/docs`, 'reference.png');
  });

  it('when /graphql is opened, GraphiQL renders its editor with the token hint, from the service alone', { timeout: 120_000 }, async () => {
    const { stdout: dom } = await chromium(`${base}/graphql`, '--dump-dom');

    expect(dom).toContain('graphiql-container');
    expect(dom).toMatch(/class="[^"]*graphiql-query-editor/);
    expect(dom).toContain('token issue --group analyst');
    // Its first request, the schema's introspection, is answered before a token is given: no error pane.
    expect(dom).not.toContain('UNAUTHENTICATED');
    await screenshot(`${base}/graphql`, 'graphiql.png');
  });
});
