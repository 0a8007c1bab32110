import { register } from 'node:module';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KoaInstrumentation, KoaLayerType } from '@opentelemetry/instrumentation-koa';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { maskedRequestTarget } from './masked-request-target.ts';
import { onTracingShutdown } from './tracing-shutdown.ts';

/**
 * The OpenTelemetry SDK with the instrumentations of what the service talks through: HTTP (its
 * requests, and the SAV files it fetches), Koa (a span per route), MongoDB (the read models) and gRPC
 * (EventStoreDB). Spans go to the OTLP endpoint of the standard variables, the protocol and batching
 * theirs too (`OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_BSP_*`, `OTEL_TRACES_SAMPLER`...). Only traces:
 * the metrics are Prometheus' on /metrics, the logs JSON lines on stdout.
 */

// The service's own modules are ES modules (through tsx), whose imports require-in-the-middle never
// sees: import-in-the-middle's loader hook lets the instrumentations patch Koa... when imported. It
// wraps only the modules instrumented here (by default it would wrap every module, the service's too).
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, {
  data: { include: ['http', 'https', 'koa', 'mongodb', '@grpc/grpc-js'] },
});

const sdk = new NodeSDK({
  serviceName: process.env.OTEL_SERVICE_NAME?.trim() || 'sav-order-service',
  instrumentations: [
    // Paths and query strings carry customers' e-mails (/api/Customer/details/{email}, sav-status),
    // action tokens and signed label links: a span keeps the path's first two segments (its route
    // is in http.route) and no query string, as the access log keeps neither.
    new HttpInstrumentation({ startIncomingSpanHook: maskedRequestTarget }),
    // Koa's plain middleware are anonymous functions nested in one another: one span each would say
    // nothing the route span and the HTTP span do not. The routes' spans carry the route pattern.
    new KoaInstrumentation({ ignoreLayersType: [KoaLayerType.MIDDLEWARE] }),
    new MongoDBInstrumentation(),
    new GrpcInstrumentation(),
  ],
  metricReaders: [],
  logRecordProcessors: [],
});
sdk.start();
onTracingShutdown(() => sdk.shutdown());
