import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SupplierName } from '../../../src/events/schema/common-schemas.ts';
import { cancelSale } from '../../../src/events/sales/cancel-sale.ts';
import { importSale } from '../../../src/events/sales/import-sale.ts';
import { shipSupplierLine } from '../../../src/events/sales/supplier-lines.ts';
import { supplierLinesProjection } from '../../../src/projections/supplier-lines/supplier-lines-projection.ts';
import { trackSupplierChanges, type SupplierChanges } from '../../../src/rest/supplier/supplier-changes.ts';
import { openSalesHarness, type SalesHarness } from '../../events/sales/sales-harness.ts';
import { anOrder } from './supplier-fixtures.ts';

describe("tracking changes to a supplier's lines", () => {
  let harness: SalesHarness;
  let applied: number | null;
  let changes: SupplierChanges;
  beforeEach(async () => {
    harness = await openSalesHarness();
    applied = null;
    changes = trackSupplierChanges({
      eventStore: harness.store,
      eventTypes: supplierLinesProjection({ timezone: 'Europe/Paris' }).eventTypes,
      appliedPosition: () => applied,
      batchSize: 2,
    });
  });
  afterEach(async () => harness.close());

  /**
   * Imports an order with one line per supplier given; answers its service_order_ids, the log's head
   * and the position of SaleImported (its lines' tracking numbers follow it: they change no listing).
   */
  const importFor = async (...suppliers: SupplierName[]) => {
    const order = anOrder(suppliers.map((supplier) => ({ supplier })));
    const result = await importSale(harness.deps, order, harness.context);
    const [imported] = await harness.saleEvents(order.increment_id);
    return {
      order,
      lines: result.saleProductIds.map((id) => `${order.increment_id}_${id}`),
      position: await harness.store.headPosition(),
      importedAt: imported!.position,
    };
  };
  const lastChangeOf = async (supplier: SupplierName) => (await changes.versionOf(supplier)).lastChange;

  it('when first asked, every supplier counts as changed at the applied position', async () => {
    const { position } = await importFor('supplier-a');
    applied = position;
    expect(await changes.versionOf('supplier-a')).toEqual({ epoch: 0, position, lastChange: position });
  });

  it("when an applied event concerns one supplier only, only that supplier's last change moves", async () => {
    applied = -1;
    expect(await lastChangeOf('supplier-a')).toBe(-1);
    const { position, importedAt } = await importFor('supplier-b');
    applied = position;
    expect(await lastChangeOf('supplier-a')).toBe(-1);
    expect(await lastChangeOf('supplier-b')).toBe(importedAt);
  });

  it("when a line gets its tracking number, its supplier's last change does not move: the listing does not show the number", async () => {
    applied = -1;
    await lastChangeOf('supplier-a');
    const { position, importedAt } = await importFor('supplier-a');
    applied = position;
    expect(position).toBeGreaterThan(importedAt);
    expect(await lastChangeOf('supplier-a')).toBe(importedAt);
  });

  it('when an event is recorded but not yet applied by the projection, it does not count yet', async () => {
    applied = -1;
    await lastChangeOf('supplier-a');
    const { position, importedAt } = await importFor('supplier-a');
    expect(await lastChangeOf('supplier-a')).toBe(-1);
    applied = position;
    expect(await lastChangeOf('supplier-a')).toBe(importedAt);
  });

  it('when many events were applied since the last look, they are all read, batch after batch', async () => {
    applied = -1;
    await lastChangeOf('supplier-a');
    const { lines } = await importFor('supplier-a');
    await shipSupplierLine(harness.deps, { serviceOrderId: lines[0]!, supplier: 'supplier-a' }, harness.context);
    const afterA = await harness.store.headPosition();
    let lastImport = -1;
    for (let index = 0; index < 5; index++) lastImport = (await importFor('supplier-b')).importedAt;
    applied = await harness.store.headPosition();
    expect(await lastChangeOf('supplier-a')).toBe(afterA);
    expect(await lastChangeOf('supplier-b')).toBe(lastImport);
  });

  it('when a product is cancelled, which names no supplier, both suppliers count as changed', async () => {
    applied = -1;
    await lastChangeOf('supplier-a');
    const { order, lines } = await importFor('supplier-a');
    await cancelSale(harness.deps, { incrementId: order.increment_id, saleProductIds: [Number(lines[0]!.split('_')[1])], reason: 'rupture' }, harness.context);
    applied = await harness.store.headPosition();
    expect(await lastChangeOf('supplier-b')).toBe(applied);
  });

  it('when the applied position goes back (the read model was rebuilt), a new epoch begins', async () => {
    const { position } = await importFor('supplier-a');
    applied = position;
    await changes.versionOf('supplier-a');
    applied = -1;
    expect(await changes.versionOf('supplier-a')).toEqual({ epoch: 1, position: -1, lastChange: -1 });
  });
});
