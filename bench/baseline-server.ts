import type http from 'node:http';
import { serveOnLoopback, type LoopbackServer } from './loopback-server.ts';

/**
 * The yardstick: a bare `node:http` server in the same process, answering every path with one fixed
 * small JSON body once it has read the request's body. What a route costs beyond it is the cost of
 * the application (Koa, authentication, parsing, the read models, the event store).
 */

const baselineBody = JSON.stringify({ success: true, message: 'A fixed answer of the bare HTTP stack, as small as a short API answer.' });

export const startBaselineServer = (): Promise<LoopbackServer> => {
  const body = Buffer.from(baselineBody);
  return serveOnLoopback(
    (request: http.IncomingMessage, response: http.ServerResponse) =>
      new Promise<void>((resolve) => {
        request.resume();
        request.on('end', () => {
          response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
          response.end(body);
          resolve();
        });
      }),
  );
};
