import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import type { EventStore, NewEvent } from '../../../src/events/store/event-store.ts';
import { openSqliteEventStore } from '../../../src/events/store/sqlite-event-store.ts';
import { appendHandler, batchAppendHandler } from './append-service.ts';
import { ServerFeaturesService, StreamsService } from './protocol.ts';
import { readHandler } from './read-service.ts';
import { getSupportedMethodsHandler } from './server-features.ts';
import { AppendSignal, type AppendFault, type ServerContext } from './server-context.ts';

export type EsdbTestServerOptions = {
  /** Where the log is kept; give the same folder (and port) to restart a stopped server on its data. Default: a temporary folder removed at stop. */
  dataDir?: string;
  /** Default: a free port chosen by the system. */
  port?: number;
  /** Write system events into a new log, as a real node does at start (default true). */
  systemEvents?: boolean;
};

export type EsdbTestServer = {
  /** A connection string for `@eventstore/db-client`: `esdb://127.0.0.1:<port>?tls=false`. */
  url: string;
  port: number;
  /** The embedded store behind the server. */
  store: EventStore;
  /** Cuts every connection (calls in flight fail as on a network loss) and listens again on the same port. */
  dropConnections(): Promise<void>;
  /** The next append loses its connections before the store writes it, or after (its success is never answered). */
  failNextAppend(fault: AppendFault): void;
  /** Appends a system event (`$statsCollection`), as a node does periodically. */
  appendSystemEvent(): Promise<void>;
  stop(): Promise<void>;
};

const systemEvent = (type: string, data: Record<string, number | string>): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: {} as NewEvent['metadata'],
});

/**
 * A gRPC server speaking the part of EventStoreDB's protocol that `@eventstore/db-client` 6.2.1 uses
 * (Streams.Read, Append and BatchAppend, ServerFeatures), over the embedded SQLite store. The client
 * connects to it with `esdb://host:port?tls=false`: a single node, so no gossip is asked for.
 */
export async function startEsdbTestServer(options: EsdbTestServerOptions = {}): Promise<EsdbTestServer> {
  const ownsDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'esdb-test-server-')));
  const store = openSqliteEventStore({ file: path.join(dataDir, 'events.sqlite') });
  const appended = new AppendSignal();
  let plannedFault: AppendFault | undefined;
  let server: grpc.Server | undefined;
  let port = options.port ?? 0;
  let dropping: Promise<void> | undefined;

  const context: ServerContext = {
    store,
    appended,
    takeAppendFault: () => {
      const fault = plannedFault;
      plannedFault = undefined;
      return fault;
    },
    dropConnections: () => dropConnections(),
  };

  const listen = async (): Promise<void> => {
    const next = new grpc.Server();
    next.addService(StreamsService, {
      read: readHandler(context),
      append: appendHandler(context),
      batchAppend: batchAppendHandler(context),
      delete: (_call: unknown, callback: grpc.sendUnaryData<never>) => callback({ code: grpc.status.UNIMPLEMENTED }),
      tombstone: (_call: unknown, callback: grpc.sendUnaryData<never>) => callback({ code: grpc.status.UNIMPLEMENTED }),
    });
    next.addService(ServerFeaturesService, { getSupportedMethods: getSupportedMethodsHandler() });
    port = await new Promise<number>((resolve, reject) =>
      next.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    server = next;
  };

  const dropConnections = (): Promise<void> => {
    dropping ??= (async () => {
      server?.forceShutdown();
      server = undefined;
      await listen();
    })().finally(() => (dropping = undefined));
    return dropping;
  };

  const appendSystemEvent = async (): Promise<void> => {
    await store.appendToStream('$stats-127.0.0.1:2113', [systemEvent('$statsCollection', { 'proc-cpu': 1.5 })]);
    appended.notify();
  };

  try {
    if (options.systemEvents !== false && (await store.headPosition()) === -1) {
      // What a fresh node's log starts with: metadata of a system stream, and statistics.
      await store.appendToStream('$$$scavenges', [systemEvent('$metadata', { $maxAge: 2_592_000 })]);
      await appendSystemEvent();
    }
    await listen();
  } catch (error) {
    await store.close();
    throw error;
  }

  return {
    get url() {
      return `esdb://127.0.0.1:${port}?tls=false`;
    },
    get port() {
      return port;
    },
    store,
    dropConnections,
    failNextAppend: (fault) => {
      plannedFault = fault;
    },
    appendSystemEvent,
    async stop() {
      await dropping;
      server?.forceShutdown();
      server = undefined;
      await store.close();
      if (ownsDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
