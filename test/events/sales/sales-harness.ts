import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemContext, type CommandContext } from '../../../src/events/command-context.ts';
import { createIdAllocator } from '../../../src/events/ids/id-allocator.ts';
import type { StoredEvent } from '../../../src/events/registry.ts';
import { readDomainStream } from '../../../src/events/domain-store.ts';
import { saleStreamName, type SaleEvent } from '../../../src/events/sales/events.ts';
import type { ImportSaleDeps, OrderImportPayload } from '../../../src/events/sales/import-sale.ts';
import { openSqliteEventStore, type SqliteEventStore } from '../../../src/events/store/sqlite-event-store.ts';
import { address } from './sale-fixtures.ts';

/** The sale handlers on a real store in a fresh file, with a frozen clock and an empty catalog. */

export const frozenNow = new Date('2026-10-03T08:00:00.000Z');

export type SalesHarness = {
  store: SqliteEventStore;
  deps: ImportSaleDeps;
  context: CommandContext;
  saleEvents: (incrementId: string) => Promise<StoredEvent<SaleEvent>[]>;
  close: () => Promise<void>;
};

export const openSalesHarness = async (): Promise<SalesHarness> => {
  const dir = await mkdtemp(join(tmpdir(), 'sales-'));
  const store = openSqliteEventStore({ file: join(dir, 'events.sqlite') });
  const clock = { now: () => frozenNow };
  const context = systemContext();
  const deps: ImportSaleDeps = {
    eventStore: store,
    clock,

    ids: createIdAllocator(store, context, { now: clock.now }),
    findProduct: () => null,
  };
  return {
    store,
    deps,
    context,
    saleEvents: async (incrementId) => (await readDomainStream<SaleEvent>(store, saleStreamName(incrementId))).events,
    close: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
};

let lastIncrementId = 200_000_000;

/** An order with a fresh increment ID: a sofa from supplier-a and a lamp from own stock, paid. */
export const anOrder = (overrides: Partial<OrderImportPayload> = {}): OrderImportPayload => ({
  increment_id: String(++lastIncrementId),
  created_at: '2026-10-02T09:14:00+02:00',
  customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin' },
  shipping_address: address(),
  items: [
    { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', qty_ordered: 1, price: 649, supplier: 'supplier-a' },
    { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, supplier: null },
  ],
  payment: { method: 'card', status: 'paid', amount_paid: 908.8 },
  ...overrides,
});
