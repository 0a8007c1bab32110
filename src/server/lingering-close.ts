import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long an answered connection goes on taking (and discarding) what its client still sends. */
export const lingerMs = 5000;

/**
 * A request answered before its body was read (no token, a body too large, a shape refused while it
 * streams) must not lose its answer. Closing a socket while the client is still sending makes the
 * kernel reset the connection, and a reset can destroy the answer before the client has read it: the
 * client sees a broken pipe instead of its 401 or 413. As RFC 9112 §9.6 asks (and web servers do,
 * "lingering close"), the connection is closed in stages: the answer is sent and our side half-closed,
 * what the client still sends is read and thrown away, and the socket is closed once the client
 * closes its side, or after `lingerMs` at most. A kept-alive connection whose answered request's body
 * is still coming is likewise given `lingerMs` to finish it, not more: an unread body never holds a
 * connection open.
 */
export const closeInStages = (server: Server, ms = lingerMs): Server => {
  server.on('connection', (socket: Socket) => {
    // The HTTP server ends a connection that is not kept alive with `destroySoon` (falling back on `end`
    // without one): half-closed instead, the rest of the request body is still read and discarded.
    socket.destroySoon = () => {
      socket.end();
      closeAtTheLatest(socket, ms);
    };
  });
  server.on('request', (request, response) => {
    response.once('finish', () => {
      if (request.complete) return;
      const timer = closeAtTheLatest(request.socket, ms);
      request.once('end', () => clearTimeout(timer));
    });
  });
  return server;
};

const closeAtTheLatest = (socket: Socket, ms: number): NodeJS.Timeout => {
  const timer = setTimeout(() => socket.destroy(), ms);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  return timer;
};
