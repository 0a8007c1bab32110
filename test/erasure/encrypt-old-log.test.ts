import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { systemContext } from '../../src/events/command-context.ts';
import { migrateSqliteLog } from '../../src/events/personal-data/migrate-sqlite-log.ts';
import { openSqliteEventStore } from '../../src/events/store/sqlite-event-store.ts';
import { createLogger } from '../../src/logger.ts';
import { findSaleById } from '../../src/projections/sales/queries.ts';
import { createRuntimeApp } from '../../src/server/app.ts';
import { eventStoreFile, openRuntime, type Runtime } from '../../src/runtime.ts';
import { issueAccessToken } from '../../src/events/access/access-token-handlers.ts';
import { cli } from './erasure-fixtures.ts';
import { oldLogValues as values, oldLogEmail as email, writeOldEvents } from './old-log.ts';

/**
 * A log written before personal data was encrypted: its events stay readable as they are, erasure is
 * refused until `cli events encrypt-personal-data` has sealed them in place; the migration resumes
 * after an interruption and does nothing the second time.
 */

describe('events written before encryption', () => {
  let dataDir: string;
  let runtime: Runtime | undefined;

  /** An old log: events appended straight to the embedded store, as the service did before encryption. */
  const writeOldLog = async () => {
    const raw = openSqliteEventStore({ file: path.join(dataDir, 'events.sqlite') });
    try {
      return await writeOldEvents(raw);
    } finally {
      await raw.close();
    }
  };
  const open = async () => {
    runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), createLogger('silent'));
    await runtime.projections.start();
    return runtime;
  };
  const logBytes = async () =>
    Buffer.concat([await readFile(path.join(dataDir, 'events.sqlite')), await readFile(path.join(dataDir, 'events.sqlite-wal')).catch(() => Buffer.alloc(0))]);
  const inClear = async () => {
    const bytes = await logBytes();
    return values.filter((value) => bytes.includes(Buffer.from(value)));
  };

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'old-log-'));
  });
  afterEach(async () => {
    await runtime?.close();
    runtime = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('when the service opens an old log, its events read as written, and erasing a customer answers 409 log_not_migrated, recording nothing', async () => {
    const sale = await writeOldLog();
    const service = await open();
    const token = (await issueAccessToken(service.write, { group: 'core' }, systemContext())).token;
    const head = await service.eventStore.headPosition();

    const response = await supertest(createRuntimeApp(service).callback()).post('/api/customers/erase').set('Authorization', `Bearer ${token}`).send({ email });

    expect((await service.eventStore.readStream(`sale-${sale.data.incrementId}`))[0]!.data).toEqual(sale.data);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 409,
      body: {
        success: false,
        error: 'log_not_migrated',
        message: 'The event log still holds events written before personal data was encrypted: run `cli events encrypt-personal-data` first, then erase again',
      },
    });
    expect(await service.eventStore.headPosition()).toBe(head);
    expect(await inClear()).toEqual(values);
  });

  it('when `cli events encrypt-personal-data` runs beside the server, the old events are sealed in place, read the same, and the customer can be erased', async () => {
    const sale = await writeOldLog();
    const service = await open();
    const before = await service.eventStore.readAll();

    const migrated = await cli(dataDir, {}, 'events', 'encrypt-personal-data');
    const again = await cli(dataDir, {}, 'events', 'encrypt-personal-data');

    expect(migrated).toMatchObject({ code: 0, stderr: '' });
    expect(migrated.stdout).toContain('Done: 3 event(s) encrypted up to position 3; customers can now be erased.');
    expect(again.stdout).toContain('Nothing to migrate');
    expect(await inClear()).toEqual([]);
    expect(await service.eventStore.readAll()).toEqual(
      before.map((event) => ({ ...event, metadata: { ...event.metadata, personalData: expect.any(Object) } })),
    );
    const erased = await cli(dataDir, {}, 'customer', 'erase', '--email', email);
    expect(erased.stdout).toContain('Erased on');
    expect((await service.eventStore.readStream(`sale-${sale.data.incrementId}`))[0]!.data).toMatchObject({ customer: { email: '[erased]' }, grandTotal: 649 });
    expect(await findSaleById(service.readStore, sale.data.saleId)).toMatchObject({ customer: { email: '[erased]', firstname: '[erased]' }, grandTotal: 649 });
  });

  it('when the migration is interrupted after its first batch, the next run resumes there and seals each event once', async () => {
    const sale = await writeOldLog();
    const service = await open();
    const interrupted = migrateSqliteLog({
      file: eventStoreFile(service.config),
      log: service.personalData.log,
      keys: service.personalData.keys,
      logIdentity: service.personalData.logIdentity,
      batchSize: 1,
      onBatch: () => {
        throw new Error('killed');
      },
    });
    await expect(interrupted).rejects.toThrow('killed');
    expect(await service.personalData.keys.migrationState('embedded')).toEqual({ legacyHead: 3, migratedUpTo: 1 });
    const raw = openSqliteEventStore({ file: eventStoreFile(service.config) });
    const firstSealed = (await raw.readStream(`sale-${sale.data.incrementId}`))[0]!.metadata.personalData;
    await raw.close();

    const resumed = await migrateSqliteLog({
      file: eventStoreFile(service.config),
      log: service.personalData.log,
      keys: service.personalData.keys,
      logIdentity: service.personalData.logIdentity,
      batchSize: 1,
    });

    expect(resumed).toEqual({ legacyHead: 3, migratedUpTo: 3, sealed: 2 });
    expect(firstSealed).toEqual({ keyId: expect.any(String), iv: expect.any(String), sealed: expect.any(String) });
    expect(await inClear()).toEqual([]);
  });
});
