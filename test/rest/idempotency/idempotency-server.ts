import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../src/config/config.ts';
import { parseAccessToken } from '../../../src/events/access/access-token.ts';
import { issueAccessToken } from '../../../src/events/access/access-token-handlers.ts';
import type { TokenGroup } from '../../../src/events/access/events.ts';
import { systemContext, type Clock } from '../../../src/events/command-context.ts';
import type { RecordedEvent } from '../../../src/events/store/event-store.ts';
import { createLogger } from '../../../src/logger.ts';
import { createRuntimeApp } from '../../../src/server/app.ts';
import { answerRecords, recordId } from '../../../src/idempotency/answer-records.ts';
import { openRuntime, type Runtime } from '../../../src/runtime.ts';
import { testBackendEnv } from '../../support/backends.ts';
import { eventually } from '../../support/eventually.ts';

/**
 * The service listening on a real port (a client can hang up on it before its answer), on a data
 * folder that outlives a restart, with a clock the specs move forward. With TEST_BACKENDS=production
 * its stores are EventStoreDB and FerretDB test servers, kept across the restart as a deployment keeps them.
 */

export const start = new Date('2026-10-05T08:00:00.000Z');

export type Answer = { status: number; replayed: string | null; location: string | null; text: string; body: Record<string, unknown> };

/** How a token travels: Bearer, or the chatbot's X-API-Token. */
export type Caller = { group: TokenGroup; token: string };

export type IdempotencyServer = {
  runtime: () => Runtime;
  caller: (group: TokenGroup) => Promise<Caller>;
  post: (caller: Caller, path: string, body: unknown, key?: string) => Promise<Answer>;
  /** Sends the request whole, then closes the connection before any answer; resolves once the service has recorded its answer. */
  postAndHangUp: (caller: Caller, path: string, body: unknown, key: string) => Promise<void>;
  /** The events of the log caused under this key. */
  eventsUnder: (key: string) => Promise<RecordedEvent[]>;
  advance: (ms: number) => void;
  restart: () => Promise<void>;
  close: () => Promise<void>;
};

const authHeaders = (caller: Caller): Record<string, string> =>
  caller.group === 'chatbot' ? { 'X-API-Token': caller.token } : { Authorization: `Bearer ${caller.token}` };

// The production backends project far slower than the embedded ones.
const recordedWithinMs = process.env.TEST_BACKENDS ? 60_000 : 10_000;

export const startIdempotencyServer = async (env: Record<string, string> = {}): Promise<IdempotencyServer> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'idempotency-'));
  const backends = await testBackendEnv(dataDir);
  let now = start.getTime();
  const clock: Clock = { now: () => new Date(now) };
  let runtime: Runtime;
  let server: http.Server;
  let base: string;
  /** What a client hanging up does once the service has read its request, by Idempotency-Key. */
  const bodyRead = new Map<string, () => void>();

  const open = async () => {
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '3000', LOG_LEVEL: 'silent', BASE_URL: 'https://orders.example.test', ...backends.env, ...env });
    runtime = await openRuntime(config, createLogger('silent'), { clock });
    await runtime.projections.start();
    server = http.createServer(createRuntimeApp(runtime).callback());
    server.on('request', (request: http.IncomingMessage) => {
      const key = request.headers['idempotency-key'];
      if (typeof key === 'string') request.once('end', () => bodyRead.get(key)?.());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const shut = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await runtime.close();
  };
  await open();

  const headersFor = (caller: Caller, payload: string, key: string | undefined): Record<string, string> => ({
    ...authHeaders(caller),
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(payload)),
    ...(key !== undefined && { 'Idempotency-Key': key }),
  });

  return {
    runtime: () => runtime,
    caller: async (group) => ({ group, token: (await issueAccessToken(runtime.write, { group }, systemContext())).token }),
    post: async (caller, target, body, key) => {
      const payload = JSON.stringify(body);
      const response = await fetch(`${base}${target}`, { method: 'POST', headers: headersFor(caller, payload, key), body: payload });
      const text = await response.text();
      return {
        status: response.status,
        replayed: response.headers.get('idempotent-replayed'),
        location: response.headers.get('location'),
        text,
        body: JSON.parse(text) as Record<string, unknown>,
      };
    },
    postAndHangUp: async (caller, target, body, key) => {
      const payload = JSON.stringify(body);
      let answered = false;
      await new Promise<void>((resolve) => {
        const request = http.request(`${base}${target}`, { method: 'POST', headers: headersFor(caller, payload, key) });
        request.on('response', () => {
          answered = true;
        });
        request.on('error', () => resolve());
        request.on('close', () => resolve());
        // The client goes away without reading a byte of the answer, as soon as the service has read
        // the whole request (a request abandoned before its body was read is simply not carried out).
        bodyRead.set(key, () => request.destroy());
        request.end(payload);
      });
      bodyRead.delete(key);
      const records = answerRecords(runtime.readStore);
      const id = recordId(parseAccessToken(caller.token)!.tokenId, key);
      await eventually(async () => (await records.find(id))?.answer !== undefined, recordedWithinMs);
      if (answered) throw new Error('the answer reached the client before it hung up');
    },
    eventsUnder: async (key) => (await runtime.eventStore.readAll()).filter((event) => event.metadata.idempotencyKey === key),
    advance: (ms) => {
      now += ms;
    },
    restart: async () => {
      await shut();
      await open();
    },
    close: async () => {
      await shut();
      await backends.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};
