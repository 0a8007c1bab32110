/**
 * Loaded by `npm start` before the service (`node --import tsx --import ./src/tracing/preload.ts
 * src/main.ts`): instrumentation can only patch the modules loaded after it, so OpenTelemetry has to
 * start here, before src/main.ts imports Koa, the MongoDB driver or gRPC. Without an OTLP endpoint
 * configured it loads nothing of OpenTelemetry (a dynamic import), and the start-up costs nothing.
 */
import { TracingConfigError, tracingSwitch } from './tracing-switch.ts';

let tracing;
try {
  tracing = tracingSwitch(process.env);
} catch (error) {
  if (!(error instanceof TracingConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
if (tracing.on) await import('./start-tracing.ts');
