import { defineConfig } from 'vitest/config';

// On the production adapters (TEST_BACKENDS, see test/support/backends.ts) every write crosses gRPC and
// every read-model update a MongoDB-compatible server: the same specs, with more time.
const onServers = Boolean(process.env.TEST_BACKENDS && process.env.TEST_BACKENDS !== 'embedded');

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: onServers ? 180_000 : 30_000,
    hookTimeout: onServers ? 180_000 : 60_000,
    pool: 'forks',
  },
});
