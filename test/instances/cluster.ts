import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { MongoClient } from 'mongodb';
import { freeLoopbackPort } from '../support/free-port.ts';
import { serviceArguments } from '../support/service-command.ts';

/**
 * Several instances of the service as `npm start` runs them (real processes), on one EventStoreDB test
 * server and one MongoDB-compatible database, sharing one DATA_DIR, as behind a load balancer. Each has
 * its own port and INSTANCE_ID; the clients of the specs spread their requests over them themselves.
 */

const root = path.resolve(import.meta.dirname, '../..');

export type LogLine = { msg?: string; level?: number; [field: string]: unknown };

export type Instance = {
  id: string;
  url: string;
  child: ChildProcess;
  lines: LogLine[];
  exited: Promise<void>;
  alive: () => boolean;
  kill: (signal: NodeJS.Signals) => Promise<void>;
};

export const startInstance = async (id: string, env: Record<string, string>): Promise<Instance> => {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, serviceArguments(), {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, PORT: String(port), HOST: '127.0.0.1', INSTANCE_ID: id, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: LogLine[] = [];
  const exited = once(child, 'exit').then(() => undefined);
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (text) => {
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        return; // not a log line
      }
      lines.push(line);
      if (line.msg === 'read models ready') resolve();
    });
    void exited.then(() => reject(new Error(`instance ${id} exited before it was ready`)));
  });
  await ready;
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    id,
    url: `http://127.0.0.1:${port}`,
    child,
    lines,
    exited,
    alive,
    kill: async (signal) => {
      if (!alive()) return;
      child.kill(signal);
      await exited;
    },
  };
};

export type LeaseView = { name: string; owner: string; expiresAt: Date };

/** The current term of every lease (projections and jobs), as stored in the shared database. */
export const readLeases = async (mongodbUrl: string): Promise<Map<string, LeaseView>> => {
  const client = new MongoClient(mongodbUrl);
  try {
    const docs = await client.db().collection<{ projection: string; term: number; owner: string; expiresAt: Date }>('projection_leases').find({}).toArray();
    const current = new Map<string, LeaseView & { term: number }>();
    for (const doc of docs) {
      const known = current.get(doc.projection);
      if (!known || known.term < doc.term) current.set(doc.projection, { name: doc.projection, owner: doc.owner, expiresAt: doc.expiresAt, term: doc.term });
    }
    return new Map([...current].map(([name, { owner, expiresAt }]) => [name, { name, owner, expiresAt }]));
  } finally {
    await client.close();
  }
};

/**
 * A client that spreads its requests over the instances at random, as a load balancer does; a request
 * whose connection fails (its instance was killed) is sent again to another one, and that instance is
 * not chosen again (a load balancer's passive health check). Records each request that had to be retried.
 */
export const spreadingClient = (instances: () => Instance[]) => {
  const down = new Set<string>();
  const retried: { path: string; status: number }[] = [];
  const pick = (except?: string): Instance => {
    const candidates = instances().filter((instance) => !down.has(instance.id) && instance.id !== except);
    const chosen = candidates[Math.floor(Math.random() * candidates.length)];
    if (!chosen) throw new Error('no instance left to send the request to');
    return chosen;
  };
  const send = async (
    requestPath: string,
    init: RequestInit = {},
    on?: Instance,
  ): Promise<{ status: number; body: unknown; headers: Headers; instance: Instance }> => {
    let instance = on ?? pick();
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await fetch(`${instance.url}${requestPath}`, init);
        const text = await response.text();
        const body: unknown = text.length > 0 && (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
        if (attempt > 1) retried.push({ path: requestPath, status: response.status });
        return { status: response.status, body, headers: response.headers, instance };
      } catch (error) {
        if (on !== undefined || attempt >= 4) throw error;
        down.add(instance.id);
        instance = pick(instance.id);
      }
    }
  };
  return { send, pick, retried, down };
};

export const json = (token: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

export const bearer = (token: string): RequestInit => ({ headers: { Authorization: `Bearer ${token}` } });
