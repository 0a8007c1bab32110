import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Config } from '../config/config.ts';
import type { Runtime } from '../runtime.ts';
import { createRuntimeApp } from './app.ts';
import { closeInStages } from './lingering-close.ts';

/**
 * The server the service listens with: HTTPS with the configured certificate and key, else plain HTTP
 * (for local use, or behind a proxy that terminates TLS). Not listening yet.
 */
export const createServer = (runtime: Runtime): Server => createServerFor(runtime.config, createRuntimeApp(runtime).callback());

export const createServerFor = (config: Pick<Config, 'tls'>, listener: RequestListener): Server => {
  if (!config.tls) return closeInStages(createHttpServer(listener));
  // Read once at start: a renewed certificate takes effect on restart.
  return closeInStages(createHttpsServer({ cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) }, listener));
};
