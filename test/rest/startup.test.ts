import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/cli/demo/seed-demo.ts';
import { loadConfig } from '../../src/config/config.ts';
import { issueAccessToken } from '../../src/events/access/access-token-handlers.ts';
import { systemContext } from '../../src/events/command-context.ts';
import { createLogger } from '../../src/logger.ts';
import { openSqliteEventStore } from '../../src/events/store/sqlite-event-store.ts';
import { eventStoreFile, openRuntime } from '../../src/runtime.ts';
import { freeLoopbackPort } from '../support/smtp-test-server.ts';
import { serviceArguments, cliArguments } from '../support/service-command.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

type Health = { status: string; readModels: { ready: boolean; position: number | null; head: number; eventsPerSecond: number; etaSeconds: number | null } };
type LogLine = { msg?: string; from?: number; [field: string]: unknown };

/** The service as `npm start` runs it: a process of its own on DATA_DIR, its JSON log lines collected. */
const startServer = async (dataDir: string, env: Record<string, string> = {}) => {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, serviceArguments(), {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: LogLine[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      lines.push(JSON.parse(line) as LogLine);
    } catch {
      // not a log line
    }
  });
  const url = `http://127.0.0.1:${port}`;
  const health = async (): Promise<{ status: number; body: Health } | undefined> => {
    try {
      const response = await fetch(`${url}/health`);
      return { status: response.status, body: (await response.json()) as Health };
    } catch {
      return undefined; // not listening yet
    }
  };
  const until = async <T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('the server did not get there');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const stop = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  };
  return { url, lines, health, until, stop, child: child as ChildProcess };
};

describe('the service as started by npm start, on a log its read models have to catch up with', () => {
  let dataDir: string;
  let token: string;
  const servers: { stop: (signal: NodeJS.Signals) => Promise<void> }[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'startup-'));
    const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), createLogger('silent'), {
      readYourWrites: false,
      idBlockSize: 1000,
    });
    await seedDemo(runtime, { orders: 500, seed: 7, until: new Date('2026-11-01T00:00:00Z'), concurrency: 32 });
    token = (await issueAccessToken(runtime.write, { group: 'supplier-a', label: 'startup' }, systemContext())).token;
    await runtime.close();
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await server.stop('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  /**
   * The types of the events after `position` in the log recorded before `before` (what the server's jobs
   * append once it is ready comes after), tree heads left out.
   */
  const typesAfter = async (position: number, before: number): Promise<string[]> => {
    const log = openSqliteEventStore({ file: eventStoreFile(loadConfig({ DATA_DIR: dataDir })) });
    try {
      return (await log.readAll({ fromPosition: position }))
        .filter((event) => Date.parse(event.recordedAt) < before)
        .map((event) => event.type)
        .filter((type) => type !== 'TreeHeadSigned');
    } finally {
      await log.close();
    }
  };

  const removeReadModels = () => Promise.all(['', '-wal', '-shm'].map((suffix) => rm(path.join(dataDir, `read-models.sqlite${suffix}`), { force: true })));

  it(
    'when it starts, it listens at once: /health tells the progress and the API answers 503 with Retry-After until the read models have caught up',
    { timeout: 120_000 },
    async () => {
      await removeReadModels();
      // Small batches make the catch-up last long enough to be watched.
      const server = await startServer(dataDir, { PROJECTION_BATCH_SIZE: '20' });
      servers.push(server);

      const catchingUp = await server.until(async () => {
        const answer = await server.health();
        return answer && answer.status === 503 && (answer.body.readModels.position ?? -1) > 0 ? answer : undefined;
      });
      const api = await fetch(`${server.url}/api/supplier-a/get-sales`, { headers: { Authorization: `Bearer ${token}` } });
      const refused = { status: api.status, retryAfter: api.headers.get('retry-after'), body: await api.json() };

      expect(catchingUp.body.status).toBe('starting');
      expect(catchingUp.body.readModels).toMatchObject({ ready: false, head: expect.any(Number), eventsPerSecond: expect.any(Number) });
      expect(catchingUp.body.readModels.position).toBeLessThan(catchingUp.body.readModels.head);
      // Either answered while catching up, or (a fast machine) after: never a wrong listing in between.
      if (refused.status === 503) {
        expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(refused.body).toEqual({
          success: false,
          message: 'The service is starting: its read models are catching up with the event log. Retry shortly.',
        });
      } else {
        expect(refused.status).toBe(200);
      }

      const ready = await server.until(async () => {
        const answer = await server.health();
        return answer?.status === 200 ? answer : undefined;
      });
      expect(ready.body.readModels).toMatchObject({ ready: true, etaSeconds: 0 });
      // Ready at the head of the log as it stood then, but for the tree heads the log's notary signs
      // meanwhile (no read model reads them); the jobs that start once it is ready append after.
      const readyLine = await server.until(async () => server.lines.find((line) => line.msg === 'Read models ready'));
      expect(readyLine).toMatchObject({ position: expect.any(Number), time: expect.any(Number) });
      expect(await typesAfter(readyLine!.position as number, readyLine!.time as number)).toEqual([]);
      // Its log says where to go, at the address people open (BASE_URL, by default localhost): the home
      // page, the reference, GraphiQL and the health check.
      const base = `http://localhost:${new URL(server.url).port}`;
      expect(server.lines.find((line) => typeof line.msg === 'string' && line.msg.startsWith('listening: '))?.msg).toBe(
        `listening: ${base}/ (API reference ${base}/docs, GraphiQL ${base}/graphql, health ${base}/health)`,
      );
      const listed = await fetch(`${server.url}/api/supplier-a/get-sales`, { headers: { Authorization: `Bearer ${token}` } });
      expect(listed.status).toBe(200);
      expect(server.lines.some((line) => line.msg === 'Catching up with the log' || line.msg === 'Read models ready')).toBe(true);
      await server.stop('SIGTERM');
    },
  );

  it(
    'when killed with SIGKILL during the catch-up, it resumes from its checkpoints at restart and ends with the read models a replay of the log gives',
    { timeout: 180_000 },
    async () => {
      await removeReadModels();
      const killed = await startServer(dataDir, { PROJECTION_BATCH_SIZE: '20' });
      servers.push(killed);
      const partway = await killed.until(async () => {
        const answer = await killed.health();
        const { position, head } = answer?.body.readModels ?? { position: null, head: 0 };
        return answer && position !== null && position > head / 4 && position < head ? position : undefined;
      });
      await killed.stop('SIGKILL');

      const restarted = await startServer(dataDir);
      servers.push(restarted);
      await restarted.until(async () => ((await restarted.health())?.status === 200 ? true : undefined));
      const start = restarted.lines.find((line) => line.msg === 'Projections start reading the log');
      // It went on from where the killed one had committed (at least part of the way), not from the start of the log.
      expect(partway).toBeGreaterThan(0);
      expect(start?.from).toBeGreaterThan(0);
      await restarted.stop('SIGTERM');

      const verify = await run(process.execPath, cliArguments('projections', 'verify'), {
        cwd: root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      });
      expect(verify.stdout).toMatch(/^Read models match a rebuild from the log \(position \d+\)$/m);
    },
  );

  it(
    'when `projections rebuild` runs beside it, the server builds the new generation while it answers, and the command reports the swap',
    { timeout: 180_000 },
    async () => {
      const server = await startServer(dataDir, { PROJECTION_BATCH_SIZE: '50' });
      servers.push(server);
      await server.until(async () => ((await server.health())?.status === 200 ? true : undefined));
      const listing = async () => fetch(`${server.url}/api/supplier-a/get-sales`, { headers: { Authorization: `Bearer ${token}` } });
      const before = await (await listing()).json();

      const cli = (...args: string[]) =>
        run(process.execPath, cliArguments('projections', ...args), {
          cwd: root,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
        });
      const rebuilding = cli('rebuild', '--projection', 'supplier-lines', '--projection', 'sales');
      const during: number[] = [];
      let done = false;
      void rebuilding.finally(() => (done = true));
      while (!done) {
        const answer = await listing();
        during.push(answer.status);
        expect(await answer.json()).toEqual(before);
      }
      const { stdout } = await rebuilding;

      expect(during.every((status) => status === 200)).toBe(true);
      expect(stdout).toMatch(/^supplier-lines\tversion \d+\tgeneration \d+ -> \d+$/m);
      expect(stdout).toMatch(/^sales\tversion \d+\tgeneration \d+ -> \d+$/m);
      // The server did the work: it holds the projections' leases.
      expect(server.lines.some((line) => line.msg === 'Read model swapped to its new generation' && line.projection === 'sales')).toBe(true);
      const status = (await cli('status')).stdout;
      expect(status).toMatch(/^sales\tversion \d+\tgeneration \d+\tposition \d+\trun by another instance$/m);
      expect(await (await listing()).json()).toEqual(before);
      await server.stop('SIGTERM');
    },
  );
});
