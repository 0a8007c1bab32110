import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeEvent, type StoredEvent } from '../../../src/events/registry.ts';
import type { EventStore } from '../../../src/events/store/event-store.ts';
import { openSqliteEventStore } from '../../../src/events/store/sqlite-event-store.ts';
import type { ReadStore } from '../../../src/projections/read-store/read-store.ts';
import { saleLogProjection, type SaleLogEntry } from '../../../src/projections/sale-log/sale-log-projection.ts';
import { openTestReadStoreWithCleanup } from '../../support/mongo-backend.ts';
import { writeSaleHistory, type LoggedLine } from './sale-history.ts';

const saleA = { saleId: 1, incrementId: '100000001', savId: 7 };
const saleB = { saleId: 2, incrementId: '100000002', savId: 8 };

describe('sale-log projection', () => {
  let directory: string;
  let eventStore: EventStore;
  let readStore: ReadStore;
  let closeReadStore: () => Promise<void>;
  let events: StoredEvent[];
  let linesOfA: LoggedLine[];

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'sale-log-'));
    eventStore = openSqliteEventStore({ file: join(directory, 'events.sqlite') });
    ({ store: readStore, cleanup: closeReadStore } = await openTestReadStoreWithCleanup());
    linesOfA = await writeSaleHistory(eventStore, saleA);
    await writeSaleHistory(eventStore, saleB);
    events = (await eventStore.readAll()).map(decodeEvent);
    await saleLogProjection.setup?.(readStore);
  });

  afterEach(async () => {
    await eventStore.close();
    await closeReadStore();
    rmSync(directory, { recursive: true, force: true });
  });

  const applyAll = async (): Promise<void> => {
    for (const event of events) await saleLogProjection.apply(event, readStore);
  };

  const logOf = (saleId: number) =>
    readStore
      .collection<SaleLogEntry>('sale_log')
      .find({ saleId }, { sort: { position: 1 } })
      .toArray();

  const allCollections = async () =>
    Object.fromEntries(
      await Promise.all(
        saleLogProjection.collections.map(
          async (name) =>
            [
              name,
              await readStore
                .collection(name)
                .find({}, { sort: { _id: 1 } })
                .toArray(),
            ] as const,
        ),
      ),
    );

  it('when a sale and its SAV have a history, each of their events appears once, in log order, with its summary', async () => {
    await applyAll();

    const log = await logOf(saleA.saleId);
    const streams = [`sale-${saleA.incrementId}`, `sav-${saleA.savId}`];
    const expected = events.filter((event) => streams.includes(event.streamName));
    expect(log.map((entry) => entry._id)).toEqual(expected.map((event) => event.id));
    expect(log.map((entry) => entry.position)).toEqual(expected.map((event) => event.position));
    expect(new Set(log.map((entry) => entry.incrementId))).toEqual(new Set([saleA.incrementId]));

    expect(log.map(({ type, summary }) => ({ type, summary }))).toEqual(linesOfA);
    // The history covers every event type the log reads, so each has its summary checked here; the
    // erasure's own line, and the address lines it rewrites, in test/erasure/customer-erasure.test.ts.
    expect(new Set(linesOfA.map((line) => line.type))).toEqual(new Set(saleLogProjection.eventTypes.filter((type) => type !== 'CustomerErased')));
  });

  it('when an event is logged, its entry carries the sale, the stream position, the actor and the log user', async () => {
    await applyAll();
    const log = await logOf(saleA.saleId);

    const shipment = events.find((event) => event.type === 'SaleProductShipped' && event.streamName === `sale-${saleA.incrementId}`);
    expect(log.find((entry) => entry._id === shipment?.id)).toEqual({
      _id: shipment?.id,
      saleId: saleA.saleId,
      incrementId: saleA.incrementId,
      position: shipment?.position,
      revision: shipment?.revision,
      stream: `sale-${saleA.incrementId}`,
      type: 'SaleProductShipped',
      occurredAt: '2025-03-03T10:00:00.000Z',
      recordedAt: shipment?.recordedAt,
      actor: { kind: 'cron', group: null, label: null },
      logUser: 'cron',
      correlationId: shipment?.metadata.correlationId,
      causationId: shipment?.metadata.causationId,
      summary: { fr: 'Produit 12 (SKU CAN-OSLO) expédié par supplier-a', en: 'Product 12 (SKU CAN-OSLO) shipped by supplier-a' },
    });
    expect(log.find((entry) => entry.type === 'SaleProductAcknowledged')).toMatchObject({
      actor: { kind: 'token', group: 'supplier-a', label: 'supplier-a-prod' },
      logUser: null,
    });
    expect(log.find((entry) => entry.type === 'SavFileAttached')).toMatchObject({
      stream: `sav-${saleA.savId}`,
      saleId: saleA.saleId,
      incrementId: saleA.incrementId,
      actor: { kind: 'token', group: 'core', label: 'backoffice' },
    });
  });

  it('when every event is applied twice, the collections are the same as after once', async () => {
    await applyAll();
    const once = await allCollections();

    await applyAll();
    for (const event of events) await saleLogProjection.apply(event, readStore);

    expect(await allCollections()).toEqual(once);
    expect(await readStore.collection('sale_log').countDocuments({})).toBe(events.length);
  });

  it('when the same event is redelivered at once, it is logged once', async () => {
    for (const event of events) {
      await saleLogProjection.apply(event, readStore);
      await saleLogProjection.apply(event, readStore);
    }

    expect(await logOf(saleB.saleId)).toHaveLength(events.length / 2);
  });
});
