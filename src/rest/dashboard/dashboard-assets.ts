import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * The dashboards' script and stylesheet, served by the service under /dashboard/assets: the client
 * (client/, Preact components written with htm, uPlot charts) bundled by esbuild the first time it
 * is asked for, then kept in memory. Bundled from the sources (which ship with the service), so
 * that `npm run dev`, the specs and the built service serve the same code, with no second build step.
 */
export const dashboardAssetsPath = '/dashboard/assets';

export type DashboardAsset = { type: string; body: string };

/** The client's sources: beside this file, or under src/ when this file runs bundled from dist/ (or dist/chunks/). */
const clientDir = (): string => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, 'client'), path.resolve(here, '../src/rest/dashboard/client'), path.resolve(here, '../../src/rest/dashboard/client')];
  return candidates.find((dir) => existsSync(path.join(dir, 'main.ts'))) ?? candidates[0]!;
};

const require = createRequire(import.meta.url);

const bundle = async (): Promise<Map<string, DashboardAsset>> => {
  const dir = clientDir();
  const result = await build({
    entryPoints: [path.join(dir, 'main.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const script = result.outputFiles[0]!.text;
  const uplotCss = await readFile(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
  const ownCss = await readFile(path.join(dir, 'dashboard.css'), 'utf8');
  return new Map([
    ['dashboard.js', { type: 'application/javascript; charset=utf-8', body: script }],
    ['dashboard.css', { type: 'text/css; charset=utf-8', body: `${uplotCss}\n${ownCss}` }],
  ]);
};

let assets: Promise<Map<string, DashboardAsset>> | undefined;

/** The assets, bundled once per process (a failed bundle is tried again at the next request). */
export const dashboardAssets = (): Promise<Map<string, DashboardAsset>> => {
  assets ??= bundle().catch((error: unknown) => {
    assets = undefined;
    throw error;
  });
  return assets;
};
