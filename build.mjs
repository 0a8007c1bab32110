// `npm run build` (run by `npm start` first): the service bundled into dist/ as plain JavaScript, so
// that the process that serves runs no TypeScript compiler. Loading the sources through tsx costs a
// module-hooks thread of its own in the server and again in each PDF worker, and a compile of every
// file at each start (docs/architecture.md, "Running"). The dashboards' browser client is bundled here
// too, into dist/dashboard/ (served as it is, never built by the server). Seven entries: the service,
// the CLI, the tracing preload (which must run before it), and the four workers, the PDF one, the log
// tree's leaf one, the webhooks' sending one and the CLI's read-models one, which their callers find
// beside the service's bundle (src/concurrency/worker-entry.ts).
// Packages stay in node_modules (imported, not bundled): native addons, fonts and the instrumentations
// that patch them work as they do from the sources. The modules loaded on demand
// (the production adapters, OpenTelemetry) stay in chunks of their own, loaded only when configured.
//
// Instances started together from one checkout each build: every file is written beside its place and
// renamed into it (atomic), chunks before the entries that import them, so that a process starting
// meanwhile reads either build whole, never a file half written or missing.
//
// A build whose inputs have not changed since the last one is skipped: dist/build-inputs.json keeps a
// digest of every file the last build read (from esbuild's metafile) with this script, the lock file and
// the TypeScript settings. `npm run cli` and `npm start` then start at once when nothing was edited.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.join(root, 'dist');
const chunks = path.join(outdir, 'chunks');
const stampFile = path.join(outdir, 'build-inputs.json');
const alwaysRead = ['build.mjs', 'package-lock.json', 'tsconfig.json'];

/** One digest of the files named (relative to the root): a missing file counts as changed. */
const digestOf = (files) => {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) {
    const full = path.join(root, file);
    hash.update(`${file}\0`).update(existsSync(full) ? readFileSync(full) : 'missing\0');
  }
  return hash.digest('hex');
};

const last = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) : undefined;
const outputsPresent = (names) => names.every((name) => existsSync(path.join(outdir, name)));
if (last && process.env.BUILD_FORCE !== '1' && outputsPresent(last.outputs) && digestOf(last.inputs) === last.digest) process.exit(0);

const { outputFiles, metafile } = await build({
  entryPoints: {
    main: 'src/main.ts',
    cli: 'src/cli/main.ts',
    preload: 'src/tracing/preload.ts',
    'pdf-worker': 'src/pdf/pdf-worker.ts',
    'leaf-worker': 'src/events/audit/leaf-worker.ts',
    'webhook-send-worker': 'src/webhooks/webhook-send-worker.ts',
    'read-models-worker': 'src/cli/read-models-worker.ts',
  },
  absWorkingDir: root,
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  write: false,
  metafile: true,
  logLevel: 'warning',
});

// The dashboards' client (Preact components written with htm, uPlot charts), for the browser.
const client = await build({
  entryPoints: ['src/rest/dashboard/client/main.ts'],
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  write: false,
  metafile: true,
  logLevel: 'warning',
});
const dashboardDir = path.join(outdir, 'dashboard');
const css = [createRequire(import.meta.url).resolve('uplot/dist/uPlot.min.css'), path.join(root, 'src/rest/dashboard/client/dashboard.css')];
const dashboardFiles = [
  { path: path.join(dashboardDir, 'dashboard.js'), contents: client.outputFiles[0].contents },
  { path: path.join(dashboardDir, 'dashboard.css'), contents: css.map((file) => readFileSync(file, 'utf8')).join('\n') },
];

mkdirSync(chunks, { recursive: true });
mkdirSync(dashboardDir, { recursive: true });
const inChunks = (file) => path.dirname(file.path) === chunks;
for (const file of [...dashboardFiles, ...outputFiles.filter(inChunks), ...outputFiles.filter((file) => !inChunks(file))]) {
  const staged = `${file.path}.${process.pid}.tmp`;
  writeFileSync(staged, file.contents);
  renameSync(staged, file.path);
}
// Chunks of earlier builds: a process only imports chunks while it starts.
const written = new Set(outputFiles.map((file) => path.basename(file.path)));
for (const name of readdirSync(chunks)) if (!written.has(name) && !name.endsWith('.tmp')) rmSync(path.join(chunks, name), { force: true });

// What this build read, for the next one to tell whether it can be skipped.
const inputs = [
  ...new Set([...Object.keys(metafile.inputs), ...Object.keys(client.metafile.inputs), ...css.map((file) => path.relative(root, file)), ...alwaysRead]),
].filter((file) => !file.startsWith('node_modules/') || css.some((cssFile) => path.relative(root, cssFile) === file));
const outputs = [...outputFiles, ...dashboardFiles].map((file) => path.relative(outdir, file.path));
const stamp = JSON.stringify({ digest: digestOf(inputs), inputs, outputs });
writeFileSync(`${stampFile}.${process.pid}.tmp`, stamp);
renameSync(`${stampFile}.${process.pid}.tmp`, stampFile);
