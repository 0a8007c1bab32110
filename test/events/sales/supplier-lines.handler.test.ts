import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../src/events/command-context.ts';
import { importSale } from '../../../src/events/sales/import-sale.ts';
import { serviceOrderId } from '../../../src/events/sales/service-order-id.ts';
import { acknowledgeSupplierLine, shipSupplierLine } from '../../../src/events/sales/supplier-lines.ts';
import { anOrder, frozenNow, openSalesHarness, type SalesHarness } from './sales-harness.ts';

const supplierA: CommandContext = { actor: { kind: 'token', group: 'supplier', label: 'supplier-a' }, correlationId: 'c-1' };

describe('a supplier working its lines by service order id', () => {
  let harness: SalesHarness;
  beforeEach(async () => {
    harness = await openSalesHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  const importedLine = async () => {
    const sale = await importSale(harness.deps, anOrder(), harness.context);
    return { sale, id: serviceOrderId(sale.incrementId, sale.saleProductIds[0] as number) };
  };

  it('when it acknowledges its line, the acknowledgement is recorded under its token', async () => {
    const { sale, id } = await importedLine();
    expect(await acknowledgeSupplierLine(harness.deps, { serviceOrderId: id, supplier: 'supplier-a' }, supplierA)).toMatchObject({ status: 'acknowledged' });

    const last = (await harness.saleEvents(sale.incrementId)).at(-1);
    expect(last?.type).toBe('SaleProductAcknowledged');
    expect(last?.data).toMatchObject({ saleProductId: sale.saleProductIds[0], supplier: 'supplier-a', acknowledgedAt: frozenNow.toISOString() });
    expect(last?.metadata.actor).toEqual(supplierA.actor);
  });

  it('when it ships its line, the shipment is logged under the cron user while the event names its token', async () => {
    const { sale, id } = await importedLine();
    expect(await shipSupplierLine(harness.deps, { serviceOrderId: id, supplier: 'supplier-a' }, supplierA)).toMatchObject({ status: 'shipped' });

    const last = (await harness.saleEvents(sale.incrementId)).at(-1);
    expect(last?.data).toMatchObject({ preparedAt: frozenNow.toISOString(), logUser: 'cron' });
    expect(last?.metadata.actor).toEqual(supplierA.actor);
  });

  it('when the order is unknown, acknowledging is refused as an unknown line and nothing is written', async () => {
    const result = await acknowledgeSupplierLine(harness.deps, { serviceOrderId: '999999999_1', supplier: 'supplier-a' }, supplierA);
    expect(result).toMatchObject({ status: 'refused', refusal: { code: 'line_not_found_or_processed' } });
    expect(await harness.store.headPosition()).toBe(-1);
  });

  it('when the order is unknown, shipping finds nothing deliverable and nothing is written', async () => {
    const result = await shipSupplierLine(harness.deps, { serviceOrderId: '999999999_1', supplier: 'supplier-a' }, supplierA);
    expect(result).toMatchObject({ status: 'refused', refusal: { code: 'nothing_deliverable' } });
    expect(await harness.store.headPosition()).toBe(-1);
  });

  it('when the id is malformed, both are refused as an unknown line', async () => {
    expect(await acknowledgeSupplierLine(harness.deps, { serviceOrderId: 'abc', supplier: 'supplier-a' }, supplierA)).toMatchObject({
      status: 'refused',
      refusal: { code: 'line_not_found_or_processed' },
    });
    expect(await shipSupplierLine(harness.deps, { serviceOrderId: 'abc', supplier: 'supplier-a' }, supplierA)).toMatchObject({
      status: 'refused',
      refusal: { code: 'nothing_deliverable' },
    });
  });

  it('when the line is the lamp from own stock, neither supplier can acknowledge it', async () => {
    const { sale } = await importedLine();
    const ownStock = serviceOrderId(sale.incrementId, sale.saleProductIds[1] as number);
    const before = await harness.store.headPosition();
    for (const supplier of ['supplier-a', 'supplier-b'] as const) {
      expect(await acknowledgeSupplierLine(harness.deps, { serviceOrderId: ownStock, supplier }, supplierA)).toMatchObject({ status: 'refused' });
    }
    expect(await harness.store.headPosition()).toBe(before);
  });
});
