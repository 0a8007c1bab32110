import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openEsdbEventStore } from '../src/events/store/esdb/esdb-event-store.ts';
import { openSqliteEventStore } from '../src/events/store/sqlite-event-store.ts';
import { openSqliteReadStore } from '../src/projections/read-store/sqlite-read-store.ts';
import { openMongoReadStore } from '../src/projections/read-store/mongo-read-store.ts';
import { startEsdbTestServer } from '../test/support/esdb-server/server.ts';
import { startFerretDb } from '../test/support/ferretdb-server.ts';
import { measureAppends, type AppendLoad } from './backends-events.ts';
import { measureProjection } from './backends-projections.ts';
import { machine, seededDataDir } from './bench-runtime.ts';

/**
 * `npm run bench:backends`: the production adapters against the embedded ones, in the same run.
 * - Appends: the same load through the embedded SQLite store and through the EventStoreDB adapter
 *   (`@eventstore/db-client` over gRPC to the test server, itself backed by SQLite; BENCH_EVENTSTORE_URL
 *   names a real EventStoreDB instead).
 * - Projections: every projection replays the seeded log of BENCH_ORDERS demo orders (default 2,000)
 *   into the embedded read store (SQLite) and into MongoDB (a FerretDB started here; BENCH_MONGODB_URL names a
 *   real MongoDB instead).
 * The ratios carry; the absolute figures against a real EventStoreDB or MongoDB will differ.
 */
const orders = Number(process.env.BENCH_ORDERS ?? 2_000);
const appendEvents = Number(process.env.BENCH_APPEND_EVENTS ?? 4_000);
const loads: (AppendLoad & { name: string })[] = [
  { name: 'one event per append, one at a time', streams: 50, eventsPerAppend: 1, inFlight: 1, total: Math.round(appendEvents / 4) },
  { name: 'one event per append, 16 in flight', streams: 64, eventsPerAppend: 1, inFlight: 16, total: appendEvents },
  { name: '10 events per append, 16 in flight', streams: 64, eventsPerAppend: 10, inFlight: 16, total: appendEvents * 2 },
];

console.log(
  `bench:backends on ${machine()}; load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(', ')} at start\n`,
);
const scratch = await mkdtemp(path.join(tmpdir(), 'bench-backends-'));
const rows: string[] = [];
const ratio = (production: number, embedded: number) => `${((production / embedded) * 100).toPrecision(2)} %`;

try {
  // Appends.
  const embedded = openSqliteEventStore({ file: path.join(scratch, 'embedded.sqlite') });
  const server = process.env.BENCH_EVENTSTORE_URL ? undefined : await startEsdbTestServer({ dataDir: path.join(scratch, 'esdb') });
  const esdb = openEsdbEventStore({ url: process.env.BENCH_EVENTSTORE_URL ?? server!.url });
  try {
    for (const load of loads) {
      const onEmbedded = await measureAppends(embedded, load);
      const onEsdb = await measureAppends(esdb, load);
      const line = `| appends, ${load.name} | ${onEmbedded.eventsPerSecond.toLocaleString('en')} events/s | ${onEsdb.eventsPerSecond.toLocaleString('en')} events/s | ${ratio(onEsdb.eventsPerSecond, onEmbedded.eventsPerSecond)} |`;
      rows.push(line);
      console.log(line);
    }
  } finally {
    await esdb.close();
    await embedded.close();
    await server?.stop();
  }

  // Projections, from the seeded log.
  const log = openSqliteEventStore({ file: path.join(await seededDataDir(orders), 'events.sqlite') });
  const ferret = process.env.BENCH_MONGODB_URL ? undefined : await startFerretDb();
  const mongo = await openMongoReadStore({ url: `${(process.env.BENCH_MONGODB_URL ?? ferret!.url).replace(/\/[^/?]*(\?|$)/, '/bench_backends$1')}` });
  const embeddedReadStore = openSqliteReadStore({ file: path.join(scratch, 'read-models.sqlite') });
  try {
    const onEmbedded = await measureProjection(embeddedReadStore, log);
    const onMongo = await measureProjection(mongo, log);
    const line = `| projection replay of ${orders.toLocaleString('en')} orders (${onEmbedded.events.toLocaleString('en')} events, 11 projections) | ${Math.round(onEmbedded.eventsPerSecond).toLocaleString('en')} events/s (${onEmbedded.seconds.toFixed(1)} s) | ${Math.round(onMongo.eventsPerSecond).toLocaleString('en')} events/s (${onMongo.seconds.toFixed(1)} s) | ${ratio(onMongo.eventsPerSecond, onEmbedded.eventsPerSecond)} |`;
    rows.push(line);
    console.log(line);
    await mongo.dropAll();
  } finally {
    await mongo.close();
    await embeddedReadStore.close();
    await log.close();
    await ferret?.stop();
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}

console.log(
  `\n${machine()}; ${process.env.BENCH_EVENTSTORE_URL ? 'EventStoreDB at BENCH_EVENTSTORE_URL' : 'EventStoreDB test server'}; ${process.env.BENCH_MONGODB_URL ? 'MongoDB at BENCH_MONGODB_URL' : 'FerretDB 1.24 (SQLite)'}\n`,
);
console.log('| Measure | Embedded | Production adapter | Ratio |\n|---|--:|--:|--:|');
for (const row of rows) console.log(row);
