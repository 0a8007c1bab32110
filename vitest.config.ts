import { defineConfig } from 'vitest/config';

// On the production adapters (TEST_BACKENDS, see test/support/backends.ts) every write crosses gRPC and
// every read-model update a MongoDB-compatible server: the same specs, with more time.
const onServers = Boolean(process.env.TEST_BACKENDS && process.env.TEST_BACKENDS !== 'embedded');

// TEST_REPORT_DIR (set by .ci/run): each run also writes its results as JSON there, one file per
// backend and Node major, so that the CI can close on one line counting every spec it ran.
const reportDir = process.env.TEST_REPORT_DIR;
const reportFile = `${reportDir}/${process.env.TEST_BACKENDS || 'embedded'}-node${process.versions.node.split('.')[0]}.json`;

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: onServers ? 180_000 : 30_000,
    hookTimeout: onServers ? 180_000 : 60_000,
    pool: 'forks',
    // The specs that start the service as a process run its bundle (dist/), built here first.
    globalSetup: ['test/support/build-service.ts'],
    reporters: reportDir ? ['default', ['json', { outputFile: reportFile }]] : ['default'],
  },
});
