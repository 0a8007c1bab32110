import { defineConfig } from 'vitest/config';
import { productionPathSpecs, quickSpecs, runtimeSmokeSpecs } from './test/spec-sets.ts';
import { ServersLastSequencer } from './test/support/servers-last-sequencer.ts';

// On the production adapters (TEST_BACKENDS, see test/support/backends.ts) every write crosses gRPC and
// every read-model update a MongoDB-compatible server: the same specs, with more time.
const onServers = Boolean(process.env.TEST_BACKENDS && process.env.TEST_BACKENDS !== 'embedded');

// Which specs: the whole suite by default; TEST_SET names one of the sets run again beyond it
// (test/spec-sets.ts: why each spec is in it), `production` being the set of the production adapters.
// The several-instance proof runs alone, after the whole suite (test/run.sh): three servers and their
// stores beside another worker's specs make its timings the machine's, not the design's.
const instanceSpecs = ['test/instances/**/*.test.ts'];
const sets: Record<string, readonly string[]> = {
  production: productionPathSpecs,
  'runtime-smoke': runtimeSmokeSpecs,
  quick: quickSpecs,
  instances: instanceSpecs,
};
const set = process.env.TEST_SET || (onServers ? 'production' : undefined);
if (set !== undefined && !sets[set]) throw new Error(`TEST_SET must be one of ${Object.keys(sets).join(', ')}, not ${set}`);

// TEST_REPORT_DIR (set by .ci/run): each run also writes its results as JSON there, one file per
// set, backend and Node major, so that the CI can close on one line counting every spec it ran.
const reportDir = process.env.TEST_REPORT_DIR;
const reportFile = `${reportDir}/${set ?? 'all'}-${process.env.TEST_BACKENDS || 'embedded'}-node${process.versions.node.split('.')[0]}.json`;

export default defineConfig({
  test: {
    environment: 'node',
    include: set === undefined ? ['test/**/*.test.ts'] : [...sets[set]!],
    exclude: set === undefined ? ['**/node_modules/**', ...instanceSpecs] : ['**/node_modules/**'],
    testTimeout: onServers ? 180_000 : 30_000,
    hookTimeout: onServers ? 180_000 : 60_000,
    pool: 'forks',
    // Two workers on two cores: most specs wait on child processes, servers and disks as much as they
    // compute. Files share their worker's modules (no re-import of the service per file, which cost a
    // quarter of the suite); each spec opens its own stores and servers, and the few that mock a
    // module load it again (vi.resetModules).
    maxWorkers: 2,
    isolate: false,
    // The specs that start the service as a process run its bundle (dist/), built here first.
    globalSetup: ['test/support/build-service.ts'],
    // The files that start the MongoDB-compatible test server last: its build may still run as the suite starts (test/run.sh).
    sequence: { sequencer: ServersLastSequencer },
    reporters: reportDir ? ['default', ['json', { outputFile: reportFile }]] : ['default'],
  },
});
