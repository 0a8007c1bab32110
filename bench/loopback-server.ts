import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A server of the benchmark on 127.0.0.1, on a free port. It counts the requests its handler is still
 * working on, so that a scenario can wait for them to end before the next one starts: when the load
 * stops, a slow route (a PDF) is still busy with the requests whose connections were just dropped.
 */

export type LoopbackServer = { origin: string; idle: () => Promise<void>; close: () => Promise<void> };

export const serveOnLoopback = async (handler: (request: http.IncomingMessage, response: http.ServerResponse) => unknown): Promise<LoopbackServer> => {
  let inFlight = 0;
  const server = http.createServer((request, response) => {
    inFlight++;
    void Promise.resolve(handler(request, response)).finally(() => inFlight--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    idle: async () => {
      while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};
