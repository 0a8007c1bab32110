import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanBarcode } from '../labels/pdf-tools.ts';
import { startApi, type ApiHarness } from '../support/api-harness.ts';
import { getFile, labelUrl } from './files/files-client.ts';
import { anOrder, bearer } from './core/orders/orders-api.ts';

/**
 * Issue 13, point 5: tracking numbers existed only once a label PDF had been fetched, so lines shipped
 * without a fetched label answered `tracking: null` (core) and `"tracking": ""` (chatbot). Each
 * supplier line now gets its number when it is created; the label, rendered whenever, prints it.
 * Through the API alone: an order imported, its lines shipped by their suppliers, no label fetched.
 */
describe('contract: tracking numbers of supplier lines', () => {
  let api: ApiHarness;
  let tokens: { core: string; chatbot: string; 'supplier-a': string; 'supplier-b': string };
  let order: ReturnType<typeof anOrder>;
  let lines: { sofa: number; table: number; lamp: number };
  beforeAll(async () => {
    api = await startApi();
    tokens = {
      core: await api.tokenFor('core'),
      chatbot: await api.tokenFor('chatbot'),
      'supplier-a': await api.tokenFor('supplier-a'),
      'supplier-b': await api.tokenFor('supplier-b'),
    };
    order = anOrder({
      items: [
        { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', qty_ordered: 1, price: 649, supplier: 'supplier-a', carrier: 'DPD' },
        { sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499, supplier: 'supplier-b', carrier: 'Colissimo' },
        { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, supplier: null },
      ],
    });
    const imported = await api.request.post('/api/api-add-new-order-api-shopping').set(bearer(tokens.core)).send(order);
    expect(imported.status).toBe(201);
    const [sofa, table, lamp] = imported.body.sale_product_ids as number[];
    lines = { sofa: sofa!, table: table!, lamp: lamp! };
    for (const [supplier, id] of [
      ['supplier-a', sofa],
      ['supplier-b', table],
    ] as const) {
      const shipped = await api.request
        .post(`/api/${supplier}/ship-sale`)
        .set(bearer(tokens[supplier]))
        .send({ service_order_id: `${order.increment_id}_${id}` });
      expect(shipped.body).toEqual({ success: true, message: 'Votre produit a été expédié avec succès' });
    }
  });
  afterAll(async () => api.close());

  const coreSale = async () => (await api.request.get(`/api/get-sale-info-by-increment-id/${order.increment_id}`).set(bearer(tokens.core))).body;
  const chatbotSale = async () => (await api.request.get(`/api/sale/details/${order.increment_id}`).set('X-API-Token', tokens.chatbot)).body;

  it('spec "Get sale by ID: sale details with all sale products and tracking information": when drop-shipped lines shipped and no label was fetched, each carries its tracking number and carrier tracking page', async () => {
    const sale = await coreSale();

    const [sofa, table, lamp] = sale.products;
    expect(sofa).toMatchObject({ state: 'shipped', tracking: { number: expect.stringMatching(/^MC\d{13}$/), carrier: 'DPD' } });
    expect(sofa.tracking.url).toBe(`https://trace.dpd.fr/fr/trace/${sofa.tracking.number}`);
    expect(table).toMatchObject({ state: 'shipped', tracking: { number: expect.stringMatching(/^MC\d{13}$/), carrier: 'Colissimo' } });
    expect(table.tracking.url).toBe(`https://www.laposte.fr/outils/suivre-vos-envois?code=${table.tracking.number}`);
    expect(sofa.tracking.number).not.toBe(table.tracking.number);
    // The lamp ships from own stock: no supplier line, no number.
    expect(lamp).toMatchObject({ supplier: null, tracking: null });
  });

  it('spec "Get sale by ID: sale details with all sale products and tracking information": when lines go by Kuehne+Nagel, Geodis or DB Schenker, each carries its carrier public tracking page', async () => {
    const freight = anOrder({
      items: [
        { sku: 'ARM-CHENE-200', name: 'Armoire chêne 200 cm', qty_ordered: 1, price: 1290, supplier: 'supplier-a', carrier: 'Kuehne+Nagel' },
        { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', qty_ordered: 1, price: 649, supplier: 'supplier-a', carrier: 'Geodis' },
        { sku: 'LAV-8KG-A', name: 'Lave-linge 8 kg', qty_ordered: 1, price: 549, supplier: 'supplier-b', carrier: 'DB Schenker' },
      ],
    });
    expect((await api.request.post('/api/api-add-new-order-api-shopping').set(bearer(tokens.core)).send(freight)).status).toBe(201);

    const { products } = (await api.request.get(`/api/get-sale-info-by-increment-id/${freight.increment_id}`).set(bearer(tokens.core))).body;

    const urls = products.map(({ tracking }: { tracking: { number: string; url: string } }) => tracking.url.replace(tracking.number, '<number>'));
    expect(urls).toEqual([
      'https://mykn.kuehne-nagel.com/public-tracking/shipments?query=<number>',
      'https://espace-client.geodis.com/services/destinataires/#/fr/suivi/<number>',
      'https://www.dbschenker.com/app/tracking-public/?refNumber=<number>',
    ]);
  });

  it('spec "data.products[]: ... tracking (string), carrier (string)": when a drop-shipped line shipped, the chatbot answers its tracking number, not ""', async () => {
    const [core, chatbot] = [await coreSale(), await chatbotSale()];

    const tracking = (products: { sale_product_id: number; tracking: unknown }[], id: number) =>
      products.find((product) => product.sale_product_id === id)?.tracking;
    expect(tracking(chatbot.data.products, lines.sofa)).toBe(core.products[0].tracking.number);
    expect(tracking(chatbot.data.products, lines.table)).toBe(core.products[1].tracking.number);
    expect(tracking(chatbot.data.products, lines.lamp)).toBe('');
  });

  it('spec "link_to_label: direct link to the shipping label PDF": when the label is fetched after the shipment, it prints the number the sale answered', async () => {
    const { products } = await coreSale();

    const label = await getFile(api, labelUrl('supplier-a', `${order.increment_id}_${lines.sofa}`), tokens['supplier-a']);

    expect(label.status).toBe(200);
    expect(await scanBarcode(label.body as Buffer)).toBe(products[0].tracking.number);
  });
});
