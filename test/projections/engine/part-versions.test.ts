import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../../src/events/command-context.ts';
import { cancelSale } from '../../../src/events/sales/cancel-sale.ts';
import { importSale } from '../../../src/events/sales/import-sale.ts';
import { shipSupplierLine } from '../../../src/events/sales/supplier-lines.ts';
import { readCheckpoint } from '../../../src/projections/checkpoints.ts';
import { checkpointName } from '../../../src/projections/engine/generations.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../../support/api-harness.ts';
import { anOrder } from '../../rest/supplier/supplier-fixtures.ts';

/**
 * The content version of a part of a read model (a projection divided into parts: the supplier lines,
 * per supplier): it changes when a batch changes a document of that part, and only then, so that an
 * answer kept for one supplier survives the other supplier's orders. The parts' last changes are
 * written with the checkpoint, for the instances that do not run the projection.
 */
describe("the content version of a part of a read model (a supplier's lines)", () => {
  let api: ApiHarness;
  beforeEach(async () => {
    api = await startApi();
  });
  afterEach(async () => api.close());

  const version = (supplier: string) => api.runtime.projections.currentContentVersion('supplier-lines', supplier);
  const importFor = async (supplier: 'supplier-a' | 'supplier-b') => {
    const order = anOrder([{ supplier }]);
    const imported = await importSale(api.runtime.salesDeps, order, systemContext());
    await readModelsCaughtUp(api.runtime);
    return { incrementId: order.increment_id, line: `${order.increment_id}_${imported.saleProductIds[0]}`, saleProductId: imported.saleProductIds[0]! };
  };

  it("when the other supplier's order is imported, the part's version stays; the other part's moves", async () => {
    await importFor('supplier-a');
    const [a, b] = [await version('supplier-a'), await version('supplier-b')];

    await importFor('supplier-b');

    expect(await version('supplier-a')).toBe(a);
    expect(await version('supplier-b')).not.toBe(b);
  });

  it("when a line of the supplier is shipped, its part's version moves to the shipment's batch", async () => {
    const { line } = await importFor('supplier-a');
    const before = await version('supplier-a');

    const shipped = await shipSupplierLine(api.runtime.salesDeps, { serviceOrderId: line, supplier: 'supplier-a' }, systemContext());
    await readModelsCaughtUp(api.runtime);

    expect(await version('supplier-a')).not.toBe(before);
    expect(await version('supplier-a')).toBe(`1:${shipped.status === 'shipped' && shipped.written?.position}`);
  });

  it("when a product of one supplier's line is cancelled, only that supplier's part moves", async () => {
    const { incrementId, saleProductId } = await importFor('supplier-b');
    const [a, b] = [await version('supplier-a'), await version('supplier-b')];

    await cancelSale(api.runtime.salesDeps, { incrementId, saleProductIds: [saleProductId], reason: 'rupture' }, systemContext());
    await readModelsCaughtUp(api.runtime);

    expect(await version('supplier-a')).toBe(a);
    expect(await version('supplier-b')).not.toBe(b);
  });

  it("when the batch is written, the checkpoint records each part's last change, for the other instances", async () => {
    await importFor('supplier-a');
    const { line } = await importFor('supplier-b');
    await shipSupplierLine(api.runtime.salesDeps, { serviceOrderId: line, supplier: 'supplier-b' }, systemContext());
    await readModelsCaughtUp(api.runtime);
    await api.runtime.projections.stop();

    const checkpoint = await readCheckpoint(api.runtime.readStore, checkpointName('supplier-lines', 1));

    expect(checkpoint?.changes).toEqual({
      parts: { 'supplier-a': Number((await version('supplier-a'))!.split(':')[1]), 'supplier-b': Number((await version('supplier-b'))!.split(':')[1]) },
      whole: null,
    });
  });
});
