/**
 * Tracing is on when an OTLP endpoint is configured (the standard variables: the general endpoint, or
 * the traces one) and the standard `OTEL_SDK_DISABLED` does not turn it off. Nothing here imports
 * OpenTelemetry: this is what decides whether it is loaded at all.
 */
export type TracingSwitch = { on: false } | { on: true; endpointVariable: string; endpoint: string };

const endpointVariables = ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT'] as const;

export class TracingConfigError extends Error {
  readonly code = 'TRACING_CONFIG';
}

export const tracingSwitch = (env: NodeJS.ProcessEnv): TracingSwitch => {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return { on: false };
  for (const variable of endpointVariables) {
    const endpoint = env[variable]?.trim();
    if (!endpoint) continue;
    let url: URL | undefined;
    try {
      url = new URL(endpoint);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new TracingConfigError(`${variable} must be an http:// or https:// URL (the OTLP collector), got "${endpoint}"`);
    }
    return { on: true, endpointVariable: variable, endpoint };
  }
  return { on: false };
};
