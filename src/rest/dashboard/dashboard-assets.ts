import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The dashboards' script and stylesheet, served under /dashboard/assets: the browser client bundled by
 * the build (build.mjs, run by `npm start` first) into dist/dashboard/, read once per process.
 */
export const dashboardAssetsPath = '/dashboard/assets';

export type DashboardAsset = { type: string; body: string };

const types: Record<string, string> = { 'dashboard.js': 'application/javascript; charset=utf-8', 'dashboard.css': 'text/css; charset=utf-8' };

/** dist/dashboard/: beside the bundle that runs (dist/, dist/chunks/), or at the root of the checkout when the sources run. */
const builtDir = (): string => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, 'dashboard'), path.resolve(here, '../dashboard'), path.resolve(here, '../../../dist/dashboard')];
  return candidates.find((dir) => existsSync(path.join(dir, 'dashboard.js'))) ?? candidates[0]!;
};

const read = async (): Promise<Map<string, DashboardAsset>> => {
  const dir = builtDir();
  const files = await Promise.all(
    Object.entries(types).map(async ([name, type]) => [name, { type, body: await readFile(path.join(dir, name), 'utf8') }] as const),
  );
  return new Map(files);
};

let assets: Promise<Map<string, DashboardAsset>> | undefined;

/** The assets, read once per process (a failed read, before a first build, is tried again at the next request). */
export const dashboardAssets = (): Promise<Map<string, DashboardAsset>> => {
  assets ??= read().catch((error: unknown) => {
    assets = undefined;
    throw error;
  });
  return assets;
};
