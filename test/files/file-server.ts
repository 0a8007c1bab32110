import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A file host on a loopback port, standing in for the remote hosts clients link to. It records the
 * paths it was asked for, so a test can prove a refused URL was never fetched.
 */

/** A 1x1 PNG, a JPEG header (JFIF) and an MP4 opening (`ftyp isom`): what the content check reads. */
export const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
export const jpeg = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]),
  Buffer.alloc(200, 0x42),
  Buffer.from([0xff, 0xd9]),
]);
export const mp4 = Buffer.concat([
  Buffer.from([0x00, 0x00, 0x00, 0x18]),
  Buffer.from('ftypisom', 'latin1'),
  Buffer.from([0x00, 0x00, 0x02, 0x00]),
  Buffer.from('isommp41', 'latin1'),
  Buffer.from([0x00, 0x00, 0x00, 0x08]),
  Buffer.from('free', 'latin1'),
]);
export const text = Buffer.from('Ceci est un fichier texte, pas une image.\n');

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export type FileServer = {
  /** `127.0.0.1:<port>`, as an allowlist entry. */
  host: string;
  port: number;
  url: (path: string) => string;
  requested: string[];
  close: () => Promise<void>;
};

const serve =
  (body: Buffer, type: string, headers: Record<string, string> = {}): Handler =>
  (_request, response) => {
    response.writeHead(200, { 'content-type': type, 'content-length': String(body.length), ...headers });
    response.end(body);
  };

/** Sends `size` bytes of a JPEG in chunks, with no Content-Length: only counting can stop it. */
const chunkedJpeg =
  (size: number): Handler =>
  (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/jpeg' });
    response.write(jpeg.subarray(0, 4));
    let sent = 4;
    const chunk = Buffer.alloc(64 * 1024, 0x42);
    const more = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', more);
      }
      response.end();
    };
    response.on('error', () => undefined);
    more();
  };

export const standardRoutes = (mib: number): Record<string, Handler> => ({
  '/photo.jpg': serve(jpeg, 'image/jpeg'),
  '/image.png': serve(png, 'image/png'),
  '/clip.mp4': serve(mp4, 'video/mp4'),
  '/notes.txt': serve(text, 'text/plain'),
  // A text file that claims to be a JPEG: the content decides.
  '/fake.jpg': serve(text, 'image/jpeg'),
  '/big.jpg': serve(Buffer.concat([jpeg, Buffer.alloc(2 * mib)]), 'image/jpeg'),
  '/big-chunked.jpg': chunkedJpeg(2 * mib),
  '/missing.jpg': (_request, response) => {
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
  },
  // Headers, then nothing: the body never ends.
  '/stalled.jpg': (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': '100000' });
    response.write(jpeg.subarray(0, 4));
  },
  // No answer at all.
  '/silent.jpg': () => undefined,
});

/** `redirects[path]` answers 302 to that location. */
export const startFileServer = async (
  options: { routes?: Record<string, Handler>; redirects?: Record<string, string>; host?: string } = {},
): Promise<FileServer> => {
  const requested: string[] = [];
  const routes = { ...standardRoutes(1024 * 1024), ...options.routes };
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    requested.push(path);
    const location = options.redirects?.[path];
    if (location !== undefined) {
      response.writeHead(302, { location });
      response.end();
      return;
    }
    const handler = routes[path];
    if (handler) return handler(request, response);
    response.writeHead(404);
    response.end();
  });
  const host = options.host ?? '127.0.0.1';
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const origin = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return {
    host: origin,
    port,
    url: (path) => `http://${origin}${path}`,
    requested,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};
