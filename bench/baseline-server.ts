import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort } from '../test/support/free-port.ts';

/**
 * The yardstick: a bare `node:http` server in a process of its own (as the service is), answering
 * `/size/<bytes>` with a fixed JSON body of that size once it has read the request's body. What a
 * route costs beyond it, for an answer of the same size, is the cost of the application (Koa,
 * authentication, parsing, the read models, the event store).
 */

const body = (bytes: number): Buffer => {
  const text = JSON.stringify({ success: true, filler: '' });
  return Buffer.from(JSON.stringify({ success: true, filler: 'x'.repeat(Math.max(0, bytes - text.length)) }));
};

const serve = (port: number): void => {
  const bodies = new Map<number, Buffer>();
  http
    .createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const bytes = Number(/^\/size\/(\d+)/.exec(request.url ?? '')?.[1] ?? 100);
        let answer = bodies.get(bytes);
        if (!answer) {
          answer = body(bytes);
          bodies.set(bytes, answer);
        }
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': answer.length });
        response.end(answer);
      });
    })
    .listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
};

export type BaselineProcess = { origin: string; stop: () => Promise<void> };

export const startBaselineProcess = async (): Promise<BaselineProcess> => {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(child.stdout!, 'data');
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) serve(Number(process.argv[2]));
