import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shipSupplierLine } from '../../src/events/sales/supplier-lines.ts';
import { startGraphqlApi, type GraphqlApi } from './graphql-api.ts';
import { fileSav, importOrder, order, seedCatalog } from './seed.ts';

const saleFields = `
  saleId incrementId status orderDate customer { email }
  products { saleProductId sku state supplier shippedAt tracking { trackingNumber } }
  supplierLines { serviceOrderId supplier state open }
  savs { savId complaintName products { sku } }
  log { type summary { en } actor { kind group label } }
`;

describe('the sales queries', () => {
  let api: GraphqlApi;
  let sale: Awaited<ReturnType<typeof importOrder>>;
  beforeEach(async () => {
    api = await startGraphqlApi();
    await seedCatalog(api);
    sale = await importOrder(api);
  });
  afterEach(async () => api.close());

  it('when a sale is asked by its ID or its increment ID, both answer the same sale with its products, supplier lines and log', async () => {
    const byId = await api.data(`query($id: Int) { sale(id: $id) { ${saleFields} } }`, { id: sale.saleId });
    const byIncrementId = await api.data(`{ sale(incrementId: "100004512") { ${saleFields} } }`);

    expect(byIncrementId).toEqual(byId);
    expect(byId.sale).toMatchObject({
      saleId: sale.saleId,
      incrementId: '100004512',
      status: 'processing',
      orderDate: '2026-10-02',
      customer: { email: 'Claire.Martin@example.org' },
      products: [
        {
          saleProductId: sale.sofa,
          sku: 'CAN-OSLO-3P-GRY',
          state: 'pending',
          supplier: 'supplier-a',
          shippedAt: null,
          tracking: { trackingNumber: sale.trackingOf(sale.sofa) },
        },
        { saleProductId: sale.table, sku: 'TAB-NORD-180', state: 'pending', supplier: null, tracking: null },
        { saleProductId: sale.lamp, sku: 'LAMP-ARC-BLK', state: 'pending', supplier: 'supplier-b', tracking: { trackingNumber: sale.trackingOf(sale.lamp) } },
      ],
      supplierLines: [
        { serviceOrderId: `100004512_${sale.sofa}`, supplier: 'supplier-a', state: 'pending', open: true },
        { serviceOrderId: `100004512_${sale.lamp}`, supplier: 'supplier-b', state: 'pending', open: true },
      ],
      savs: [],
      log: [
        {
          type: 'SaleImported',
          summary: { en: 'Order 100004512 imported from shopping-api: 3 product(s), total 1407.80 EUR' },
          actor: { kind: 'system', group: null, label: null },
        },
        {
          type: 'TrackingNumberAllocated',
          summary: { en: `Tracking number ${sale.trackingOf(sale.sofa)} allocated to product ${sale.sofa} (SKU CAN-OSLO-3P-GRY), shipped by supplier-a` },
          actor: { kind: 'system', group: null, label: null },
        },
        {
          type: 'TrackingNumberAllocated',
          summary: { en: `Tracking number ${sale.trackingOf(sale.lamp)} allocated to product ${sale.lamp} (SKU LAMP-ARC-BLK), shipped by supplier-b` },
          actor: { kind: 'system', group: null, label: null },
        },
      ],
    });
  });

  it('when the sale is unknown, sale answers null; with both IDs or none, a BAD_USER_INPUT error', async () => {
    expect(await api.data('{ sale(id: 999999) { saleId } }')).toEqual({ sale: null });
    const both = await api.post('{ sale(id: 1, incrementId: "1") { saleId } }');
    expect(both.body.errors[0]).toMatchObject({ message: 'id: give exactly one of id and incrementId', extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('when a product shipped and a SAV was filed, the sale shows both, and the log names who did what', async () => {
    await shipSupplierLine(
      api.runtime.salesDeps,
      { serviceOrderId: `100004512_${sale.sofa}`, supplier: 'supplier-a' },
      {
        actor: { kind: 'token', group: 'supplier-a', label: 'Fournisseur A' },
        correlationId: 'corr-ship',
      },
    );
    const sav = await fileSav(api, sale.lamp);

    const { sale: found } = await api.data(`{ sale(id: ${sale.saleId}) { ${saleFields} log { correlationId causationId position } } }`);

    expect(found.products[0]).toMatchObject({ state: 'shipped', shippedAt: '2026-10-05T10:00:00+02:00' });
    expect(found.supplierLines[0]).toMatchObject({ state: 'shipped', open: false });
    expect(found.savs).toEqual([{ savId: sav.sav_id, complaintName: 'Produit endommagé', products: [{ sku: 'LAMP-ARC-BLK' }] }]);
    expect(found.log.map((entry: { type: string }) => entry.type)).toEqual([
      'SaleImported',
      'TrackingNumberAllocated',
      'TrackingNumberAllocated',
      'SaleProductShipped',
      'SavCreated',
    ]);
    expect(found.log[3]).toMatchObject({
      actor: { kind: 'token', group: 'supplier-a', label: 'Fournisseur A' },
      correlationId: 'corr-ship',
      causationId: 'corr-ship',
    });
    expect(found.log[4].actor).toEqual({ kind: 'token', group: 'core', label: 'back-office' });
    const positions = found.log.map((entry: { position: number }) => entry.position);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('when saleLog is asked, it answers the same entries as the sale’s log; null for an unknown sale', async () => {
    await fileSav(api, sale.lamp);
    const data = await api.data(`{ saleLog(saleId: ${sale.saleId}) { type stream summary { fr } } unknown: saleLog(saleId: 999999) { type } }`);
    expect(data.saleLog).toEqual([
      { type: 'SaleImported', stream: 'sale-100004512', summary: { fr: 'Commande 100004512 importée depuis shopping-api : 3 produit(s), total 1407.80 EUR' } },
      {
        type: 'TrackingNumberAllocated',
        stream: 'sale-100004512',
        summary: { fr: `Numéro de suivi ${sale.trackingOf(sale.sofa)} attribué au produit ${sale.sofa} (SKU CAN-OSLO-3P-GRY), expédié par supplier-a` },
      },
      {
        type: 'TrackingNumberAllocated',
        stream: 'sale-100004512',
        summary: { fr: `Numéro de suivi ${sale.trackingOf(sale.lamp)} attribué au produit ${sale.lamp} (SKU LAMP-ARC-BLK), expédié par supplier-b` },
      },
      { type: 'SavCreated', stream: expect.stringMatching(/^sav-\d+$/), summary: { fr: expect.stringMatching(/^SAV \d+ créé \(canal core\)/) } },
    ]);
    expect(data.unknown).toBeNull();
  });

  describe('the sales connection', () => {
    beforeEach(async () => {
      await importOrder(
        api,
        order({
          increment_id: '100004513',
          customer: { email: 'paul@example.org', firstname: 'Paul', lastname: 'Durand' },
          created_at: '2026-10-03T10:00:00+02:00',
        }),
      );
      await importOrder(
        api,
        order({
          increment_id: '100004514',
          created_at: '2026-10-04T10:00:00+02:00',
          items: [{ sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499, supplier: null }],
          grand_total: 499,
        }),
      );
    });

    const page = `pageInfo { hasNextPage endCursor } edges { cursor node { incrementId } }`;
    const numbers = (connection: { edges: { node: { incrementId: string } }[] }) => connection.edges.map((edge) => edge.node.incrementId);

    it('when paged by 2, the pages follow one another with no gap and no duplicate', async () => {
      const first = (await api.data(`{ sales(first: 2) { ${page} } }`)).sales;
      const second = (await api.data(`query($after: String) { sales(first: 2, after: $after) { ${page} } }`, { after: first.pageInfo.endCursor })).sales;
      expect(numbers(first)).toEqual(['100004512', '100004513']);
      expect(first.pageInfo.hasNextPage).toBe(true);
      expect(numbers(second)).toEqual(['100004514']);
      expect(second.pageInfo.hasNextPage).toBe(false);
    });

    it('when filtered by customer e-mail (any case), order date range, supplier or SAV, only the matching sales answer', async () => {
      await fileSav(api, sale.lamp);
      const run = async (filter: string) => numbers((await api.data(`{ sales(filter: ${filter}) { ${page} } }`)).sales);
      expect(await run('{ customerEmail: "CLAIRE.martin@example.org" }')).toEqual(['100004512', '100004514']);
      expect(await run('{ orderedFrom: "2026-10-03", orderedTo: "2026-10-04" }')).toEqual(['100004513', '100004514']);
      expect(await run('{ supplier: "supplier-b" }')).toEqual(['100004512', '100004513']);
      expect(await run('{ hasSav: true }')).toEqual(['100004512']);
      expect(await run('{ hasSav: false, status: processing }')).toEqual(['100004513', '100004514']);
    });

    it('when a cursor is not one of this connection, a BAD_USER_INPUT error names the argument', async () => {
      const response = await api.post('{ sales(first: 2, after: "bm90LWEtY3Vyc29y") { edges { cursor } } }');
      expect(response.body.errors[0]).toMatchObject({ message: 'after: not a cursor of this connection', extensions: { code: 'BAD_USER_INPUT' } });
    });

    it('when every sale of a page asks for its SAVs, supplier lines and log, each read model is read once for the page, the log from the sales’ streams', async () => {
      const reads: string[] = [];
      const store = api.runtime.readStore;
      const collection = store.collection.bind(store);
      // Counts the list reads per collection, leaving every call to the real collection.
      store.collection = ((name: string) =>
        new Proxy(collection(name), {
          get: (target, property, receiver) => {
            if (property === 'find') reads.push(name);
            const value = Reflect.get(target, property, receiver);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        })) as typeof store.collection;
      let data;
      try {
        data = await api.data(`{ sales(first: 3) { edges { node { savs { savId } supplierLines { sku } log { type } } } } }`);
      } finally {
        store.collection = collection;
      }
      expect(reads.filter((name) => name === 'savs')).toHaveLength(1);
      expect(reads.filter((name) => name === 'supplier_lines')).toHaveLength(1);
      expect(new Set(reads)).toEqual(new Set(['sales', 'savs', 'supplier_lines']));
      expect(data.sales.edges.map((edge: { node: { log: { type: string }[] } }) => edge.node.log[0]?.type)).toEqual([
        'SaleImported',
        'SaleImported',
        'SaleImported',
      ]);
    });
  });
});
