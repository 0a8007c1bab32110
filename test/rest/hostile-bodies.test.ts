import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { issueAccessToken } from '../../src/events/access/access-token-handlers.ts';
import { systemContext } from '../../src/events/command-context.ts';
import { openSqliteEventStore } from '../../src/events/store/sqlite-event-store.ts';
import { createLogger } from '../../src/logger.ts';
import { eventStoreFile, openRuntime } from '../../src/runtime.ts';
import { startInstance, type Instance } from '../instances/cluster.ts';

/**
 * Bodies sent to hurt, against the service as `npm start` runs it (its heap capped as there): none
 * stops the process or records anything, each gets its documented answer. A request without a token
 * is refused before a byte of its body is read; a body is measured while it streams (inflated when
 * compressed) and its shape before it is parsed; all bodies held at once share one budget.
 */

type Answer = { status: number; body: string; headers: Record<string, string | string[] | undefined> };

/** One request on its own connection; its answer even when the server stops reading the body early. */
const send = (url: string, target: string, headers: Record<string, string>, body: Buffer | Iterable<Buffer>): Promise<Answer> =>
  new Promise((resolve, reject) => {
    let answered = false;
    const request = httpRequest(`${url}${target}`, { method: 'POST', headers, agent: false }, (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString('utf8'), headers: response.headers }));
      response.on('error', reject);
    });
    // Writing may fail once the server has answered: the answer is what counts.
    request.on('error', (error) => (answered ? undefined : reject(error)));
    if (Buffer.isBuffer(body)) request.end(body);
    else {
      for (const chunk of body) request.write(chunk);
      request.end();
    }
  });

type SlowSend = { answer: string; writeError: string | null; closedAfterMs: number };

/**
 * A slow client on a raw connection: it sends the head of a POST declaring `declared` bytes, then 64 KiB
 * every 2 ms until `sent` bytes have gone (or the connection fails); it reads what comes only once it has
 * sent them, as a client busy sending does, unless `readsAsItGoes`. What it read, its first write error,
 * and when the connection closed.
 */
const sendSlowly = (url: string, target: string, declared: number, sent: number, readsAsItGoes = false): Promise<SlowSend> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    // Half-open allowed: it keeps sending after the server has closed its side, as a client that does not look would.
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
    if (!readsAsItGoes) socket.pause();
    const startedAt = Date.now();
    let answer = '';
    let writeError: string | null = null;
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => (writeError ??= error.code ?? error.message));
    socket.on('close', () => resolve({ answer, writeError, closedAfterMs: Date.now() - startedAt }));
    socket.write(`POST ${target} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, ' ');
    let written = 0;
    const more = () => {
      if (socket.destroyed) return;
      // All sent: it says so (its side half-closed, as an HTTP client done sending may) and reads.
      if (written >= sent) return void socket.end().resume();
      written += chunk.length;
      socket.write(chunk);
      setTimeout(more, 2);
    };
    more();
  });

const gzip = (chunks: Iterable<Buffer>): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const zip = createGzip({ level: 9 });
    const out: Buffer[] = [];
    zip.on('data', (chunk: Buffer) => out.push(chunk));
    zip.on('end', () => resolve(Buffer.concat(out)));
    zip.on('error', reject);
    for (const chunk of chunks) zip.write(chunk);
    zip.end();
  });

/** `{"pad":[{},{},...]}` of about `bytes`, in chunks. */
function* emptyObjects(bytes: number): Generator<Buffer> {
  yield Buffer.from('{"pad":[{}');
  const chunk = Buffer.from(',{}'.repeat(64 * 1024));
  for (let sent = 0; sent < bytes; sent += chunk.length) yield chunk;
  yield Buffer.from(']}');
}

/** 1 GiB of zeros, 1 MiB at a time (it compresses to about 1 MB). */
function* zeros(): Generator<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024, '0');
  for (let i = 0; i < 1024; i++) yield chunk;
}

const nestedUnknownField = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

const json = { 'Content-Type': 'application/json' };

describe('hostile request bodies, against the service as npm start runs it', () => {
  let dataDir: string;
  let server: Instance;
  let core: string;
  let chatbot: string;
  let head: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'hostile-bodies-'));
    const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), createLogger('silent'), { readYourWrites: false });
    core = (await issueAccessToken(runtime.write, { group: 'core', label: 'hostile' }, systemContext())).token;
    chatbot = (await issueAccessToken(runtime.write, { group: 'chatbot', label: 'hostile' }, systemContext())).token;
    head = await runtime.eventStore.headPosition();
    await runtime.close();
    server = await startInstance('hostile', { DATA_DIR: dataDir });
  }, 120_000);

  afterAll(async () => {
    await server?.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  });

  const stillServing = async (): Promise<void> => {
    expect(server.alive()).toBe(true);
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
  };

  it('when 15 KB of gzip inflating to 15.5 MiB of empty objects is sent without a token, it answers 401 and never reads it', async () => {
    const body = await gzip(emptyObjects(15.5 * 1024 * 1024));
    expect(body.length).toBeLessThan(64 * 1024);

    const answer = await send(server.url, '/api/sale-sav/create-for-sale-product', { ...json, 'Content-Encoding': 'gzip' }, body);

    expect([answer.status, JSON.parse(answer.body)]).toEqual([401, { success: false, error: 'Unauthorized', message: 'Invalid or missing Bearer token' }]);
    await stillServing();
  });

  it('when the same body comes with a core token, it is refused for its shape before it is parsed, naming where', async () => {
    const body = await gzip(emptyObjects(15.5 * 1024 * 1024));

    const answer = await send(
      server.url,
      '/api/sale-sav/create-for-sale-product',
      { ...json, 'Content-Encoding': 'gzip', Authorization: `Bearer ${core}` },
      body,
    );

    expect([answer.status, JSON.parse(answer.body)]).toEqual([
      400,
      { success: false, error: 'Bad Request', message: 'The request body holds more than 20000 values (at pad.9999)' },
    ]);
    await stillServing();
  });

  it('when 12 MiB of JSON is sent to the chatbot SAV route without a token, it answers 401 in French', async () => {
    const answer = await send(server.url, '/api/sav', json, Buffer.concat([...emptyObjects(12 * 1024 * 1024)]));

    expect([answer.status, JSON.parse(answer.body)]).toEqual([401, { success: false, error: 'Non autorisé', message: "Token d'API manquant ou invalide" }]);
    await stillServing();
  });

  it('when a slow client sends 12 MiB without a token and reads only once it has sent them, the 401 is still there for it to read', async () => {
    const size = 12 * 1024 * 1024;

    const { answer, writeError } = await sendSlowly(server.url, '/api/sav', size, size);

    // Answered at once, the connection is closed in stages: what the client still sends is read and
    // dropped, so it meets no reset that would throw away the answer waiting in its buffer.
    expect(writeError).toBeNull();
    expect(answer).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
    expect(answer).toContain('"message":"Token d\'API manquant ou invalide"');
    await stillServing();
  });

  it('when a client declares 1 GiB without a token and keeps sending, its connection is closed a few seconds after the 401', async () => {
    const { answer, closedAfterMs } = await sendSlowly(server.url, '/api/sav', 1024 ** 3, 1024 ** 3, true);

    expect(answer).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
    // The answered connection lingers 5 s at most: an unread body never holds it open.
    expect(closedAfterMs).toBeGreaterThan(4000);
    expect(closedAfterMs).toBeLessThan(15_000);
    await stillServing();
  }, 30_000);

  it('when a 1 GiB gzip bomb is sent with a token, it stops reading at the route limit and answers 413', async () => {
    const bomb = await gzip(zeros());

    const answer = await send(server.url, '/api/sav', { ...json, 'Content-Encoding': 'gzip', 'X-API-Token': chatbot }, bomb);

    expect([answer.status, JSON.parse(answer.body)]).toEqual([
      413,
      { success: false, error: 'Requête trop volumineuse', message: 'Le corps de la requête dépasse 16 Mio' },
    ]);
    await stillServing();
  });

  it('when 32 bodies of 1 MiB of empty objects arrive at once with a token, each is refused and the process stands', async () => {
    const body = Buffer.from(`{"pad":[{}${',{}'.repeat((1024 * 1024 - 12) / 3)}]} `);
    expect(body.length).toBe(1024 * 1024);

    const answers = await Promise.all(
      Array.from({ length: 32 }, () => send(server.url, '/api/contact-lead', { ...json, Authorization: `Bearer ${core}` }, body)),
    );

    // Refused for their shape, or (when the bodies held at once reach the budget) asked to come back.
    for (const answer of answers) expect([400, 503]).toContain(answer.status);
    expect(answers.filter((answer) => answer.status === 400).length).toBeGreaterThan(0);
    await stillServing();
  });

  it('when an order import carries an unknown field nested 10,000 levels deep, it answers 400 naming the field', async () => {
    const order = JSON.stringify({ increment_id: '900000001', extra: { placeholder: 1 } }).replace('{"placeholder":1}', nestedUnknownField(10_000));

    const answer = await send(server.url, '/api/api-add-new-order-api-shopping', { ...json, Authorization: `Bearer ${core}` }, Buffer.from(order));

    expect([answer.status, JSON.parse(answer.body)]).toEqual([
      400,
      { success: false, error: 'Bad Request', message: 'The request body nests more than 32 levels deep (at extra.a.a.a.a.a.a.a...)' },
    ]);
    await stillServing();
  });

  it('when GraphQL variables nest 5,000 levels deep, it answers 400 as a GraphQL error', async () => {
    const body = `{"query":"query ($v: JSON) { __typename }","variables":{"v":${nestedUnknownField(5_000)}}}`;

    const answer = await send(server.url, '/graphql', { ...json, Authorization: `Bearer ${core}` }, Buffer.from(body));

    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      errors: [{ message: 'The request body nests more than 32 levels deep (at variables.v.a.a.a.a.a.a...)', extensions: { code: 'BAD_REQUEST' } }],
    });
    await stillServing();
  });

  it('after all of them, nothing was recorded but the tree heads of the log', async () => {
    await server.kill('SIGTERM');
    const store = openSqliteEventStore({ file: eventStoreFile(loadConfig({ DATA_DIR: dataDir })) });
    try {
      const recorded = await store.readAll({ fromPosition: head });
      expect(recorded.map((event) => event.type).filter((type) => type !== 'TreeHeadSigned')).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
