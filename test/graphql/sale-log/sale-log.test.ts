import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { savEventDefinitions } from '../../../src/events/after-sales/events.ts';
import { customerErasureStreamName } from '../../../src/events/customers/events.ts';
import { appendDomainEvents } from '../../../src/events/domain-store.ts';
import { decodeEvent, type StoredEvent } from '../../../src/events/registry.ts';
import { saleEventDefinitions } from '../../../src/events/sales/events.ts';
import type { EventStore } from '../../../src/events/store/event-store.ts';
import { openSqliteEventStore } from '../../../src/events/store/sqlite-event-store.ts';
import { saleLogOf } from '../../../src/graphql/sale-log/sale-log.ts';
import { coreContext, frozenNow, writeSaleHistory, type LoggedLine } from './sale-history.ts';

const saleA = { saleId: 1, incrementId: '100000001', savId: 7 };
const saleB = { saleId: 2, incrementId: '100000002', savId: 8 };
const loggedSale = (sale: typeof saleA, erasureKeyId: string | null = null) => ({
  _id: sale.saleId,
  incrementId: sale.incrementId,
  savIds: [sale.savId],
  erasureKeyId,
});

describe('the sale log, read from the sale’s streams', () => {
  let directory: string;
  let eventStore: EventStore;
  let events: StoredEvent[];
  let linesOfA: LoggedLine[];

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'sale-log-'));
    eventStore = openSqliteEventStore({ file: join(directory, 'events.sqlite') });
    linesOfA = await writeSaleHistory(eventStore, saleA);
    await writeSaleHistory(eventStore, saleB);
    events = (await eventStore.readAll()).map(decodeEvent);
  });

  afterEach(async () => {
    await eventStore.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('when a sale and its SAV have a history, each of their events appears once, in log order, with its summary', async () => {
    const log = await saleLogOf(eventStore, loggedSale(saleA));

    const streams = [`sale-${saleA.incrementId}`, `sav-${saleA.savId}`];
    const expected = events.filter((event) => streams.includes(event.streamName));
    expect(log.map((entry) => entry.eventId)).toEqual(expected.map((event) => event.id));
    expect(log.map((entry) => entry.position)).toEqual(expected.map((event) => event.position));
    expect(new Set(log.map((entry) => entry.incrementId))).toEqual(new Set([saleA.incrementId]));
    expect(log.map(({ type, summary }) => ({ type, summary }))).toEqual(linesOfA);
    // The history covers every event type of a sale's and a SAV's streams, so each has its summary
    // checked here; the erasure's own line, and the address lines it hides, in test/erasure/customer-erasure.test.ts.
    expect(new Set(linesOfA.map((line) => line.type))).toEqual(new Set([...saleEventDefinitions, ...savEventDefinitions].map((definition) => definition.type)));
  });

  it('when an event is logged, its entry carries the sale, the stream position, the actor and the log user', async () => {
    const log = await saleLogOf(eventStore, loggedSale(saleA));

    const shipment = events.find((event) => event.type === 'SaleProductShipped' && event.streamName === `sale-${saleA.incrementId}`);
    expect(log.find((entry) => entry.eventId === shipment?.id)).toEqual({
      eventId: shipment?.id,
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

  it("when the sale's customer was erased, the erasure is the log's last line, from the erasure's own stream", async () => {
    const keyId = randomUUID().replaceAll('-', '');
    const erasure = {
      type: 'CustomerErased' as const,
      data: { keyId, sales: [{ saleId: saleA.saleId, incrementId: saleA.incrementId }], savIds: [saleA.savId], leadIds: [], erasedAt: frozenNow.toISOString() },
    };
    const { position } = await appendDomainEvents(eventStore, customerErasureStreamName(keyId), [erasure], coreContext(), frozenNow, 'no_stream');

    const log = await saleLogOf(eventStore, loggedSale(saleA, keyId));

    expect(log).toHaveLength(linesOfA.length + 1);
    expect(log.at(-1)).toMatchObject({
      type: 'CustomerErased',
      stream: `customererasure-${keyId}`,
      position,
      saleId: saleA.saleId,
      actor: { kind: 'token', group: 'core', label: 'backoffice' },
      logUser: null,
      summary: { fr: 'Données personnelles du client effacées (RGPD, article 17)', en: "The customer's personal data erased (GDPR, article 17)" },
    });
    // The other sale's log is its own.
    expect((await saleLogOf(eventStore, loggedSale(saleB))).map((entry) => entry.type)).not.toContain('CustomerErased');
  });

  it('when a sale is known to the read model but its stream holds nothing, its log is empty', async () => {
    expect(await saleLogOf(eventStore, { _id: 3, incrementId: '100000003', savIds: [], erasureKeyId: null })).toEqual([]);
  });
});
