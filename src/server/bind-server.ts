import type { RequestListener, Server } from 'node:http';
import type { Config } from '../config/config.ts';
import { createServerFor } from './https-server.ts';

/** The port was taken: another instance is probably running there. */
export class PortInUseError extends Error {
  readonly code = 'PORT_IN_USE';
  constructor(readonly port: number) {
    super(`port ${port} is already in use (another instance running? set PORT)`);
    this.name = 'PortInUseError';
  }
}

export type BoundServer = {
  server: Server;
  /** Hands the requests to the application from now on. */
  serve: (listener: RequestListener) => void;
};

/**
 * Binds the configured port before anything else is opened, so that a second instance on a busy port
 * stops at once instead of after opening the stores. Until `serve` is called (the stores are being
 * opened, which takes a moment), `/health/live` answers 200 and every other request 503.
 */
export const bindServer = async (config: Pick<Config, 'tls' | 'port' | 'host'>): Promise<BoundServer> => {
  let listener: RequestListener = (request, response) => {
    const live = request.url === '/health/live';
    response.writeHead(live ? 200 : 503, { 'Content-Type': 'application/json; charset=utf-8', ...(live ? {} : { 'Retry-After': '1' }) });
    response.end(JSON.stringify({ status: live ? 'live' : 'starting' }));
  };
  const server = createServerFor(config, (request, response) => listener(request, response));
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? new PortInUseError(config.port) : error);
    server.once('error', failed);
    server.listen(config.port, config.host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  return { server, serve: (application) => (listener = application) };
};
