import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { systemContext } from '../../src/events/command-context.ts';
import { eraseCustomerEverywhere } from '../../src/erasure/erase-customer-everywhere.ts';
import { openEsdbEventStore } from '../../src/events/store/esdb/esdb-event-store.ts';
import { createLogger } from '../../src/logger.ts';
import { openRuntime, type Runtime } from '../../src/runtime.ts';
import { startEsdbTestServer, type EsdbTestServer } from '../support/esdb-server/server.ts';
import { cli } from './erasure-fixtures.ts';
import { oldLogEmail, oldLogValues, writeOldEvents } from './old-log.ts';

/**
 * EventStoreDB never rewrites an event: a log written there before encryption is copied into a new
 * database with its personal data sealed (`cli events copy-encrypted`), on real EventStoreDB protocol
 * servers. The copy holds the same streams, revisions, ids and data (read through the service), none
 * in clear, can be run again without writing anything twice, and customers can be erased once the
 * service runs on it; not before, on the old log.
 */
describe('cli events copy-encrypted', () => {
  let dataDir: string;
  let source: EsdbTestServer;
  let target: EsdbTestServer;
  const runtimes: Runtime[] = [];

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'copy-encrypted-'));
    source = await startEsdbTestServer({ dataDir: path.join(dataDir, 'source') });
    target = await startEsdbTestServer({ dataDir: path.join(dataDir, 'target') });
  });
  afterEach(async () => {
    for (const runtime of runtimes.splice(0)) await runtime.close();
    await source.stop();
    await target.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const open = async (url: string) => {
    const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', EVENTSTORE_URL: url }), createLogger('silent'), {
      readYourWrites: false,
    });
    runtimes.push(runtime);
    return runtime;
  };
  const raw = async (url: string) => {
    const store = openEsdbEventStore({ url });
    try {
      return await store.readAll();
    } finally {
      await store.close();
    }
  };
  const shape = (events: Awaited<ReturnType<Runtime['eventStore']['readAll']>>) =>
    events.map(({ streamName, revision, id, type, data }) => ({ streamName, revision, id, type, data }));

  it('when the old log is copied, the copy reads the same with nothing in clear; a second run writes nothing; customers can be erased on the copy only', async () => {
    const writer = openEsdbEventStore({ url: source.url });
    await writeOldEvents(writer);
    await writer.close();
    const old = await open(source.url);
    const asRead = shape(await old.eventStore.readAll());
    expect(await eraseCustomerEverywhere(old, oldLogEmail, systemContext())).toMatchObject({ status: 'log_not_migrated', legacyHead: expect.any(Number) });

    const copied = await cli(dataDir, { EVENTSTORE_URL: source.url }, 'events', 'copy-encrypted', '--to', target.url);
    const copiedAgain = await cli(dataDir, { EVENTSTORE_URL: source.url }, 'events', 'copy-encrypted', '--to', target.url);
    await rm(path.join(dataDir, 'copy-encrypted'), { recursive: true });
    const fromTheStart = await cli(dataDir, { EVENTSTORE_URL: source.url }, 'events', 'copy-encrypted', '--to', target.url);

    expect(copied).toMatchObject({ code: 0, stderr: '' });
    expect(copied.stdout).toContain('Done: the log is copied up to position');
    expect([copiedAgain.code, fromTheStart.code]).toEqual([0, 0]);
    const stored = await raw(target.url);
    expect(stored).toHaveLength(asRead.length);
    expect(oldLogValues.filter((value) => JSON.stringify(stored).includes(value))).toEqual([]);
    await old.close();
    const copy = await open(target.url);
    expect(shape(await copy.eventStore.readAll())).toEqual(asRead);
    expect(await eraseCustomerEverywhere(copy, oldLogEmail, systemContext())).toMatchObject({ status: 'erased', sales: 1, savs: 1, leads: 1 });
    expect(JSON.stringify(await copy.eventStore.readAll())).not.toContain('Anselme');
  });

  it('when the target is the log itself, or not an EventStoreDB URL, it refuses with exit code 2', async () => {
    const same = await cli(dataDir, { EVENTSTORE_URL: source.url }, 'events', 'copy-encrypted', '--to', source.url);
    const notEsdb = await cli(dataDir, {}, 'events', 'copy-encrypted', '--to', 'mongodb://localhost/x');

    expect(same).toMatchObject({ code: 2 });
    expect(same.stderr).toContain('--to: the copy must go to another database (or namespace) than the log it copies');
    expect(notEsdb).toMatchObject({ code: 2, stderr: '--to: must be an esdb:// or kurrentdb:// connection string\n' });
  });
});
