/**
 * How the service flushes its traces when it stops, set by the tracing preload when it started the
 * OpenTelemetry SDK. Without OpenTelemetry (the default) there is nothing to flush, and this module
 * imports nothing of it: src/main.ts can always call flushTracing().
 */
let shutdown: (() => Promise<void>) | undefined;

export const onTracingShutdown = (stop: () => Promise<void>): void => {
  shutdown = stop;
};

/** Exports the spans still buffered and stops the SDK; at most `timeoutMs`, so that a dead collector cannot hold the exit. */
export const flushTracing = async (timeoutMs = 5_000): Promise<void> => {
  if (shutdown === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
    timer.unref();
  });
  try {
    await Promise.race([shutdown().catch(() => undefined), timedOut]);
  } finally {
    clearTimeout(timer);
  }
};
