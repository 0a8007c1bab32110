import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  eventTypeFilter,
  jsonEvent,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type Position,
} from '@eventstore/db-client';
import serverFeaturesGrpc from '@eventstore/db-client/generated/serverfeatures_grpc_pb.js';
import sharedPb from '@eventstore/db-client/generated/shared_pb.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEsdbTestServer, type EsdbTestServer } from '../../support/esdb-server/server.ts';

/** The wire behaviour of the EventStoreDB test server, seen through the real client. */

let server: EsdbTestServer;
let client: EventStoreDBClient;
beforeAll(async () => {
  server = await startEsdbTestServer();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  client = EventStoreDBClient.connectionString(server.url);
});
afterEach(async () => {
  await client.dispose();
});

const stream = () => `wire-${randomUUID()}`;
const events = (count: number, type = 'Ticked') => Array.from({ length: count }, (_, i) => jsonEvent({ type, data: { i }, metadata: { actor: 'spec' } }));
// Credentials make the client use Streams.Append instead of BatchAppend (they are ignored without TLS).
const viaAppend = { credentials: { username: 'admin', password: 'changeit' } };

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

async function readAll(options: Parameters<EventStoreDBClient['readAll']>[0]): Promise<AllStreamResolvedEvent[]> {
  const read: AllStreamResolvedEvent[] = [];
  for await (const resolved of client.readAll(options)) read.push(resolved);
  return read;
}

describe('EventStoreDB test server', () => {
  it('when asked for its features, it answers as EventStoreDB 23.10 with batch append and reads', async () => {
    const features = new serverFeaturesGrpc.ServerFeaturesClient(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
    const answer = await new Promise<InstanceType<typeof import('@eventstore/db-client/generated/serverfeatures_pb.js').SupportedMethods>>((resolve, reject) =>
      features.getSupportedMethods(new sharedPb.Empty(), (error, value) => (error ? reject(error) : resolve(value))),
    );
    features.close();
    const methods = answer.getMethodsList().map((m) => `${m.getServiceName()}/${m.getMethodName()}`);
    expect(answer.getEventStoreServerVersion()).toBe('23.10.0');
    expect(methods).toEqual(expect.arrayContaining(['event_store.client.streams.streams/batchappend', 'event_store.client.streams.streams/read']));
  });

  it.each([
    ['batch append', {}],
    ['append', viaAppend],
  ])('when the expected revision is wrong (%s), the error carries the expected and the current revision', async (_, options) => {
    const name = stream();
    await client.appendToStream(name, events(3), options);
    const stale = await rejection(client.appendToStream(name, events(1), { expectedRevision: 0n, ...options }));
    expect(stale).toBeInstanceOf(WrongExpectedVersionError);
    expect(stale).toMatchObject({ streamName: name, expectedVersion: 0n, actualVersion: 2n });
    const exists = await rejection(client.appendToStream(name, events(1), { expectedRevision: NO_STREAM, ...options }));
    expect(exists).toMatchObject({ expectedVersion: 'no_stream', actualVersion: 2n });
    const missing = await rejection(client.appendToStream(stream(), events(1), { expectedRevision: 4n, ...options }));
    expect(missing).toMatchObject({ expectedVersion: 4n, actualVersion: 'no_stream' });
  });

  it('when the same event ids are re-sent at the same expected revision, it answers the first result and writes nothing', async () => {
    const name = stream();
    const batch = events(3);
    const first = await client.appendToStream(name, batch, { expectedRevision: NO_STREAM });
    const again = await client.appendToStream(name, batch, { expectedRevision: NO_STREAM });
    const viaUnary = await client.appendToStream(name, batch, { expectedRevision: NO_STREAM, ...viaAppend });
    expect(again).toEqual(first);
    expect(viaUnary).toEqual(first);
    const read = [];
    for await (const resolved of client.readStream(name)) read.push(resolved.event?.id);
    expect(read).toEqual(batch.map((e) => e.id));
  });

  it('when events are read back, ids, types, JSON data and metadata are as appended, with commit = prepare position', async () => {
    const name = stream();
    const [event] = events(1);
    const result = await client.appendToStream(name, event!);
    const [read] = await (async () => {
      const all = [];
      for await (const resolved of client.readStream(name)) all.push(resolved.event);
      return all;
    })();
    expect(read).toMatchObject({ id: event!.id, type: 'Ticked', data: { i: 0 }, metadata: { actor: 'spec' }, isJson: true, streamId: name, revision: 0n });
    expect(read?.position).toEqual(result.position);
    expect(read?.position?.commit).toBe(read?.position?.prepare);
    expect(Math.abs(Date.now() - (read?.created.getTime() ?? 0))).toBeLessThan(60_000);
  });

  it('when a stream does not exist, reading it fails with StreamNotFoundError', async () => {
    const reading = (async () => {
      for await (const _ of client.readStream(stream())) break;
    })();
    expect(await rejection(reading)).toBeInstanceOf(StreamNotFoundError);
  });

  it('when the log is new, $all starts with system events', async () => {
    const [first, second] = await readAll({ fromPosition: START, maxCount: 2 });
    expect(first?.event).toMatchObject({ streamId: '$$$scavenges', type: '$metadata' });
    expect(second?.event?.type).toBe('$statsCollection');
  });

  it('when $all is read from a position, forwards includes that event and backwards starts strictly before it', async () => {
    const name = stream();
    await client.appendToStream(name, events(3));
    const [, middle] = await (async () => {
      const all = [];
      for await (const resolved of client.readStream(name)) all.push(resolved.event!);
      return all;
    })();
    const forwards = await readAll({ fromPosition: middle!.position!, maxCount: 2 });
    expect(forwards.map((e) => e.event?.revision)).toEqual([1n, 2n]);
    const backwards = await readAll({ fromPosition: middle!.position!, direction: BACKWARDS, maxCount: 1 });
    expect(backwards.map((e) => e.event?.revision)).toEqual([0n]);
    const [last] = await readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 });
    expect(last?.event?.streamId).toBe(name);
  });

  it('when a filtered subscription runs, it sends checkpoints every window x multiplier events considered, caught_up, then live events', async () => {
    const name = stream();
    const start = (await readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 }))[0]!.event!.position!;
    await client.appendToStream(name, [...events(9, 'Noise'), ...events(1, 'Wanted')]);
    const checkpoints: Position[] = [];
    const subscription = client.subscribeToAll({
      fromPosition: start,
      filter: eventTypeFilter({
        prefixes: ['Wanted'],
        maxSearchWindow: 2,
        checkpointInterval: 2,
        checkpointReached: (_, position) => void checkpoints.push(position),
      }),
    });
    let caughtUp = false;
    subscription.on('caughtUp', () => (caughtUp = true));
    const received: bigint[] = [];
    for await (const resolved of subscription) {
      received.push(resolved.event!.revision);
      if (received.length === 1) await client.appendToStream(name, events(1, 'Wanted'));
      if (received.length === 2) break;
    }
    await subscription.unsubscribe();
    expect(received).toEqual([9n, 10n]);
    expect(caughtUp).toBe(true);
    // 10 events considered in windows of 2, a checkpoint every 4: after the 4th and the 8th, then at the end.
    expect(checkpoints.map((p) => p.commit - start.commit)).toEqual([4n, 8n, 10n]);
    expect(checkpoints.every((p) => p.commit === p.prepare)).toBe(true);
  });

  it('when restarted on the same folder and port, it still has every event', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dataDir = await mkdtemp(`${tmpdir()}/esdb-restart-`);
    const first = await startEsdbTestServer({ dataDir });
    const name = stream();
    const own = EventStoreDBClient.connectionString(first.url);
    await own.appendToStream(name, events(2));
    await first.stop();
    await own.dispose();
    const second = await startEsdbTestServer({ dataDir, port: first.port });
    const reconnected = EventStoreDBClient.connectionString(second.url);
    const read = [];
    for await (const resolved of reconnected.readStream(name)) read.push(resolved.event?.revision);
    expect(second.url).toBe(first.url);
    expect(read).toEqual([0n, 1n]);
    await reconnected.dispose();
    await second.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
});
