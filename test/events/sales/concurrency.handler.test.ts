import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIdAllocator, type IdAllocator } from '../../../src/events/ids/id-allocator.ts';
import { importSale, type ImportSaleDeps } from '../../../src/events/sales/import-sale.ts';
import { serviceOrderId } from '../../../src/events/sales/service-order-id.ts';
import { acknowledgeSupplierLine, shipSupplierLine } from '../../../src/events/sales/supplier-lines.ts';
import type { CommandContext } from '../../../src/events/command-context.ts';
import { anOrder, openSalesHarness, type SalesHarness } from './sales-harness.ts';

const supplierA: CommandContext = { actor: { kind: 'token', group: 'supplier', label: 'supplier-a' }, correlationId: 'supplier-a-run' };

const countBy = <T extends string>(values: readonly T[]): Partial<Record<T, number>> =>
  values.reduce<Partial<Record<T, number>>>((counts, value) => ({ ...counts, [value]: (counts[value] ?? 0) + 1 }), {});

/** Answers the sale product IDs of `parties` callers only once all of them have asked. */
const barrier = (ids: IdAllocator, parties: number): IdAllocator => {
  let waiting = 0;
  let release: () => void = () => {};
  const allThere = new Promise<void>((resolve) => (release = resolve));
  return {
    next: async (sequence, count) => {
      const allocated = await ids.next(sequence, count);
      if (sequence !== 'saleProduct') return allocated;
      if (++waiting === parties) release();
      await allThere;
      return allocated;
    },
  };
};

describe('racing commands on one sale', () => {
  let harness: SalesHarness;
  beforeEach(async () => {
    harness = await openSalesHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  /** Imports a fresh order and names its supplier-a line. */
  const aSupplierLine = async () => {
    const sale = await importSale(harness.deps, anOrder(), harness.context);
    const saleProductId = sale.saleProductIds[0] as number;
    return { incrementId: sale.incrementId, id: serviceOrderId(sale.incrementId, saleProductId) };
  };

  it('when 30 acknowledgements of one line race, one is accepted and 29 are refused', async () => {
    const line = await aSupplierLine();
    const results = await Promise.all(
      Array.from({ length: 30 }, () => acknowledgeSupplierLine(harness.deps, { serviceOrderId: line.id, supplier: 'supplier-a' }, supplierA)),
    );

    expect(countBy(results.map((result) => result.status))).toEqual({ acknowledged: 1, refused: 29 });
    for (const result of results) if (result.status === 'refused') expect(result.refusal.code).toBe('line_not_found_or_processed');
    const types = (await harness.saleEvents(line.incrementId)).map((event) => event.type);
    expect(types.filter((type) => type === 'SaleProductAcknowledged')).toHaveLength(1);
  });

  it('when 30 shipments of one line race, one is accepted and 29 find nothing deliverable', async () => {
    const line = await aSupplierLine();
    const results = await Promise.all(
      Array.from({ length: 30 }, () => shipSupplierLine(harness.deps, { serviceOrderId: line.id, supplier: 'supplier-a' }, supplierA)),
    );

    expect(countBy(results.map((result) => result.status))).toEqual({ shipped: 1, refused: 29 });
    for (const result of results) if (result.status === 'refused') expect(result.refusal.code).toBe('nothing_deliverable');
    const types = (await harness.saleEvents(line.incrementId)).map((event) => event.type);
    expect(types.filter((type) => type === 'SaleProductShipped')).toHaveLength(1);
  });

  it('when 30 imports of one order race, one sale is recorded and every import answers it', async () => {
    const order = anOrder();
    // Hold every import once it has its IDs until all have them, so that all of them try to create the stream.
    const racing = { ...harness.deps, ids: barrier(harness.deps.ids, 30) };
    const results = await Promise.all(Array.from({ length: 30 }, () => importSale(racing, order, harness.context)));

    expect(results.filter((result) => result.created)).toHaveLength(1);
    const { written: _written, ...recorded } = results.find((result) => result.created)!;
    for (const { written: _also, ...result } of results) expect(result).toEqual({ ...recorded, created: result.created });
    expect((await harness.saleEvents(order.increment_id)).map((event) => event.type)).toEqual(['SaleImported', 'TrackingNumberAllocated']);
  });

  it('when 50 imports of different orders race through two allocators, no sale ID or sale product ID is handed out twice', async () => {
    // Two allocators over one store stand for two processes reserving blocks from the same sequences.
    const otherProcess: ImportSaleDeps = { ...harness.deps, ids: createIdAllocator(harness.store, harness.context, { blockSize: 7 }) };
    const orders = Array.from({ length: 50 }, () => anOrder());
    const results = await Promise.all(orders.map((order, index) => importSale(index % 2 ? otherProcess : harness.deps, order, harness.context)));

    expect(results.every((result) => result.created)).toBe(true);
    const saleIds = results.map((result) => result.saleId);
    const saleProductIds = results.flatMap((result) => result.saleProductIds);
    expect(new Set(saleIds).size).toBe(50);
    expect(saleProductIds).toHaveLength(100);
    expect(new Set(saleProductIds).size).toBe(100);
    // What was answered is what was recorded.
    for (const [index, order] of orders.entries()) {
      const [imported] = await harness.saleEvents(order.increment_id);
      expect(imported?.data).toMatchObject({ saleId: saleIds[index] });
    }
  });
});
