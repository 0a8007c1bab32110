import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeApp } from '../../src/server/app.ts';
import { applicationRouters } from '../../src/server/application-routers.ts';
import { groupOfPath } from '../../src/rest/middleware/api-group.ts';
import { startApi, type ApiHarness } from '../support/api-harness.ts';

/**
 * Every route of the application against the methods it does not take, over a real socket (any
 * method name goes through): OPTIONS answers 200 with the route's methods in `Allow`; any other
 * method, TRACE and QUERY included, 405 with the same `Allow`, in the envelope of the route's API
 * group; never a 5xx, and the log does not move.
 */

const usualOrder = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const tried = ['OPTIONS', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'QUERY'];

/** The routes by concrete path (parameters filled in), with the methods each path takes. */
const routesOf = (api: ApiHarness): Map<string, string[]> => {
  const byPath = new Map<string, Set<string>>();
  for (const router of applicationRouters(api.runtime)) {
    for (const layer of router.stack) {
      if (layer.methods.length === 0) continue;
      const path = String(layer.path)
        .replace(/\*path$/, 'labels/supplier-a/100000001_1.pdf')
        .replace(/:(\w+)/g, (_all, name: string) => (name === 'file' ? 'swagger-ui.css' : '1'));
      const methods = byPath.get(path) ?? new Set<string>();
      for (const method of layer.methods) methods.add(method);
      byPath.set(path, methods);
    }
  }
  return new Map([...byPath].map(([path, methods]) => [path, usualOrder.filter((method) => methods.has(method))]));
};

const envelopeOf = (path: string, allow: string) => {
  const group = groupOfPath(path);
  if (group === 'supplier') return { success: false, message: `Use ${allow} on this route` };
  if (group === 'chatbot') return { success: false, error: 'Méthode non autorisée', message: `Utilisez ${allow} sur cette route` };
  return { success: false, error: 'Method Not Allowed', message: `Use ${allow} on this route` };
};

describe('the methods a route does not take', () => {
  let api: ApiHarness;
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    api = await startApi();
    server = http.createServer(createRuntimeApp(api.runtime).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server?.close();
    await api?.close();
  });

  const send = (method: string, path: string) =>
    new Promise<{ status: number; allow: string | undefined; body: string }>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, method, path }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, allow: response.headers.allow, body }));
      });
      request.on('error', reject);
      request.end();
    });

  it('when each route is asked with OPTIONS, then with every method it does not take, it answers 200 and 405 listing its methods, in its group’s envelope', async () => {
    const routes = routesOf(api);
    expect(routes.size).toBeGreaterThan(40);
    const head = await api.runtime.eventStore.headPosition();
    const wrong: string[] = [];
    for (const [path, methods] of routes) {
      const allow = methods.join(', ');
      for (const method of tried.filter((candidate) => !methods.includes(candidate))) {
        const answer = await send(method, path);
        const expected =
          method === 'OPTIONS'
            ? answer.status === 200 && answer.allow === allow
            : answer.status === 405 && answer.allow === allow && JSON.stringify(JSON.parse(answer.body)) === JSON.stringify(envelopeOf(path, allow));
        if (!expected) wrong.push(`${method} ${path}: ${answer.status} Allow: ${answer.allow} ${answer.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await api.runtime.eventStore.headPosition()).toBe(head);
  });

  it('when a path no route has is asked with any method, it answers 404 in its group’s envelope, never 405 or 5xx', async () => {
    for (const method of tried) {
      const answer = await send(method, '/api/no-such-route');
      expect({ method, status: answer.status }).toEqual({ method, status: 404 });
      expect(JSON.parse(answer.body)).toEqual({ success: false, error: 'Not Found', message: `No route for ${method} /api/no-such-route` });
    }
  });
});
