import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackendEnv } from '../support/backends.ts';
import { startOtlpReceiver } from '../support/otlp-receiver.ts';
import { cliArguments, projectRoot } from '../support/service-command.ts';
import { CLIENT, run, SERVER, startServer, type TracedServer } from './traced-server.ts';

// Beside tracing.test.ts rather than in it: the second runtime's smoke set (test/spec-sets.ts) runs that
// one and not this. The gRPC and MongoDB instrumentations hook their packages as the HTTP one does,
// which tracing.test.ts proves on both runtimes; this spec's two test servers are most of its time.
describe('OpenTelemetry tracing on the production stores', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  const servers: TracedServer[] = [];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });

  afterAll(async () => {
    for (const server of servers) server.kill();
    await receiver?.close();
  });

  it(
    "when the stores are EventStoreDB and MongoDB, their gRPC calls and the read models' commands are spans too, those of a request in its trace",
    { timeout: 180_000 },
    async () => {
      const productionDir = await mkdtemp(path.join(tmpdir(), 'tracing-production-'));
      const backends = await testBackendEnv(productionDir, 'production');
      try {
        const issued = await run(process.execPath, cliArguments('token', 'issue', '--group', 'core'), {
          cwd: projectRoot,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: productionDir, LOG_LEVEL: 'warn', ...backends.env },
        });
        const coreToken = issued.stdout.trimEnd().split('\n').at(-1)!;
        const server = await startServer(productionDir, {
          ...backends.env,
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_BSP_SCHEDULE_DELAY: '200',
        });
        servers.push(server);
        const before = receiver.spans.length;
        expect((await fetch(`${server.url}/api/sale/1`, { headers: { Authorization: `Bearer ${coreToken}` } })).status).toBe(404);

        expect((await server.stop()).code).toBe(0);

        const spans = receiver.spans.slice(before);
        const grpc = spans.filter((span) => span.scope === '@opentelemetry/instrumentation-grpc' && span.kind === CLIENT);
        expect(grpc.map((span) => span.name)).toContainEqual(expect.stringMatching(/^grpc\.event_store\.client\.streams\.Streams\/Read$/));
        expect(grpc.every((span) => span.serviceName === 'sav-order-service' && span.attributes['rpc.system'] === 'grpc')).toBe(true);
        const request = spans.find((span) => span.kind === SERVER && span.attributes['http.route'] === '/api/sale/:id');
        const mongo = spans.filter((span) => span.scope === '@opentelemetry/instrumentation-mongodb' && span.traceId === request?.traceId);
        // The token's lookup, then the sale's, under the request; the commands' values are left out.
        expect(mongo.map((span) => span.name)).toEqual(
          expect.arrayContaining([expect.stringMatching(/^find access_tokens_g\d+$/), expect.stringMatching(/^find sales_g\d+$/)]),
        );
        expect(mongo.every((span) => span.kind === CLIENT && span.attributes['db.system.name'] === 'mongodb')).toBe(true);
        expect(mongo.every((span) => !String(span.attributes['db.query.text']).includes(coreToken.split('.')[0]!))).toBe(true);
      } finally {
        await backends.cleanup();
        await rm(productionDir, { recursive: true, force: true });
      }
    },
  );
});
