import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../support/free-port.ts';
import { startOtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.ts';
import { cliArguments, projectRoot, serviceArguments } from '../support/service-command.ts';
import { openTelemetryModules, run, SERVER, startServer, type TracedServer } from './traced-server.ts';

describe('OpenTelemetry tracing, started by npm start when an OTLP endpoint is configured', () => {
  let dataDir: string;
  let token: string;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  const servers: TracedServer[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tracing-'));
    // A core token, issued by the CLI on the server's DATA_DIR as an operator does.
    const issued = await run(process.execPath, cliArguments('token', 'issue', '--group', 'core'), {
      cwd: projectRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    token = issued.stdout.trimEnd().split('\n').at(-1)!;
    receiver = await startOtlpReceiver();
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) server.kill();
    await receiver?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'when OTEL_EXPORTER_OTLP_ENDPOINT is set, each request is a server span named by its route, with the Koa route span inside it, exported under the service name by SIGTERM at the latest',
    { timeout: 120_000 },
    async () => {
      const server = await startServer(dataDir, {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      });
      servers.push(server);
      // A caller's trace context (W3C traceparent) is continued, not restarted.
      const callerTraceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const health = await fetch(`${server.url}/health`, { headers: { traceparent: `00-${callerTraceId}-00f067aa0ba902b7-01` } });
      const holidays = await fetch(`${server.url}/api/sav-holidays`, { headers: { Authorization: `Bearer ${token}` } });
      // A path and a query string holding a customer's e-mail (a chatbot route, refused here: no chatbot token).
      const customer = await fetch(`${server.url}/api/Customer/details/claire.martin@example.org?email=claire.martin@example.org`);
      expect(health.status).toBe(200);
      expect(holidays.status).toBe(200);
      expect(customer.status).toBe(401);
      const lead = await fetch(`${server.url}/api/contact-lead`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Élodie Marchand', email: 'elodie.marchand@example.fr' }),
      });
      expect(lead.status).toBe(201);

      const { code, loadedModules } = await server.stop();

      expect(code).toBe(0);
      const spans = receiver.spans;
      expect(JSON.stringify(spans)).not.toContain('claire.martin');
      expect(spans.find((span) => span.kind === SERVER && span.attributes['url.path'] === '/api/Customer/…')).toMatchObject({
        attributes: { 'url.query': '[redacted]' },
      });
      const serverSpan = (route: string) => spans.find((span) => span.kind === SERVER && span.attributes['http.route'] === route);
      const routeSpan = (of: ReceivedSpan | undefined) =>
        spans.find((span) => span.scope === '@opentelemetry/instrumentation-koa' && span.parentSpanId === of?.spanId);

      const healthSpan = serverSpan('/health');
      expect(healthSpan).toMatchObject({
        serviceName: 'sav-order-service',
        scope: '@opentelemetry/instrumentation-http',
        name: 'GET /health',
        traceId: callerTraceId,
        parentSpanId: '00f067aa0ba902b7',
        attributes: { 'http.request.method': 'GET', 'http.response.status_code': 200 },
      });
      expect(routeSpan(healthSpan)).toMatchObject({
        serviceName: 'sav-order-service',
        name: 'router - /health',
        traceId: callerTraceId,
        attributes: { 'koa.type': 'router', 'http.route': '/health' },
      });

      const holidaysSpan = serverSpan('/api/sav-holidays');
      expect(holidaysSpan).toMatchObject({ serviceName: 'sav-order-service', name: 'GET /api/sav-holidays', attributes: { 'http.response.status_code': 200 } });
      expect(holidaysSpan?.traceId).not.toBe(callerTraceId);
      expect(routeSpan(holidaysSpan)).toMatchObject({
        name: 'router - /api/sav-holidays',
        traceId: holidaysSpan?.traceId,
        attributes: { 'http.route': '/api/sav-holidays' },
      });
      // Traces only, over the JSON protocol asked for: no metrics or logs posted to the collector.
      expect(receiver.requests.length).toBeGreaterThan(0);
      expect(
        receiver.requests.every((request) => request.method === 'POST' && request.path === '/v1/traces' && request.contentType === 'application/json'),
      ).toBe(true);
      expect(openTelemetryModules(loadedModules)).toContainEqual(expect.stringContaining('/@opentelemetry/sdk-node/'));
    },
  );

  it('when OTEL_SERVICE_NAME is set, the spans carry that name', { timeout: 120_000 }, async () => {
    const server = await startServer(dataDir, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'sav-order-service-staging',
    });
    servers.push(server);
    const before = receiver.spans.length;
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200);

    await server.stop();

    // The default batch delay is 5 s: these spans reached the collector through the flush at SIGTERM.
    const live = receiver.spans.slice(before).find((span) => span.kind === SERVER && span.attributes['http.route'] === '/health/live');
    expect(live?.serviceName).toBe('sav-order-service-staging');
  });

  it('when no OTLP endpoint is set, nothing of OpenTelemetry is loaded and nothing is sent', { timeout: 120_000 }, async () => {
    const server = await startServer(dataDir, {});
    servers.push(server);
    const before = receiver.requests.length;
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/sav-holidays`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);

    const { code, loadedModules } = await server.stop();

    expect(code).toBe(0);
    expect(loadedModules.some((file) => file.includes('/node_modules/koa/'))).toBe(true);
    expect(openTelemetryModules(loadedModules)).toEqual([]);
    expect(receiver.requests.length).toBe(before);
  });

  it('when OTEL_EXPORTER_OTLP_ENDPOINT is not an http(s) URL, the server stops at start naming it', { timeout: 60_000 }, async () => {
    const port = await freeLoopbackPort();
    const started = run(process.execPath, serviceArguments(), {
      cwd: projectRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
      },
    });

    const failed = (await started.then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    )) as { code: number; stderr: string };

    expect(failed.code).toBe(2);
    expect(failed.stderr).toBe('OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL (the OTLP collector), got "collector:4318"\n');
  });
});
