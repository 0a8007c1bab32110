import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogProducts } from '../../../src/events/catalog/catalog-handlers.ts';
import { systemContext } from '../../../src/events/command-context.ts';
import { importSale } from '../../../src/events/sales/import-sale.ts';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';
import { catalog, order } from '../chatbot/chatbot-api.ts';
import { anOrder, bearer, importOrder } from '../supplier/supplier-fixtures.ts';
import { documentedResponse, expectDocumented, expectDocumentedHeaders, type Json } from './documented-schema.ts';

/**
 * The real answers of the API against the served document: a schema or an example that drifts from
 * what the routes answer fails here.
 */

const oversizedBody = JSON.stringify({ service_order_id: '1_1', padding: 'x'.repeat(1024 * 1024) });

describe('the documented answers', () => {
  let api: ApiHarness;
  let document: Json;
  let supplierToken: string;
  let chatbotToken: string;
  beforeAll(async () => {
    api = await startApi({ env: { BASE_URL: 'https://orders.example.test' } });
    document = (await api.request.get('/openapi.json')).body as Json;
    supplierToken = await api.tokenFor('supplier-a');
    chatbotToken = await api.tokenFor('chatbot');
    await catalogProducts(api.runtime.write, catalog, systemContext());
    await importSale(api.runtime.salesDeps, order(), systemContext());
    await importOrder(api, anOrder([{ supplier: 'supplier-a', carrier: 'Geodis', wholesalePrice: 50 }, { supplier: 'supplier-a' }]));
  });
  afterAll(async () => api.close());

  /** The example the document gives for this answer. */
  const exampleOf = (content: Json): unknown => content.example;

  describe('supplier API', () => {
    const getSales = '/api/supplier-a/get-sales';
    const acknowledge = '/api/supplier-a/acknowledge-sale';

    it('when get-sales lists lines, the 200 body and its paging headers are as documented', async () => {
      const response = await api.request.get(getSales).set(bearer(supplierToken));
      expect(response.status).toBe(200);
      expect((response.body as unknown[]).length).toBeGreaterThan(0);
      expectDocumented(document, getSales, 'get', response);
      expectDocumentedHeaders(document, getSales, 'get', response);
    });

    it('when a get-sales parameter cannot be read, the 400 is the documented example', async () => {
      const response = await api.request.get(`${getSales}?page=0`).set(bearer(supplierToken));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(exampleOf(expectDocumented(document, getSales, 'get', response)));
    });

    it('when the line to acknowledge is unknown, the 404 is the documented example', async () => {
      const response = await api.request.post(acknowledge).set(bearer(supplierToken)).send({ service_order_id: '999999999_1' });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(exampleOf(expectDocumented(document, acknowledge, 'post', response)));
    });

    it('when the token is missing, the 401 is the documented example', async () => {
      const response = await api.request.get(getSales);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(exampleOf(expectDocumented(document, getSales, 'get', response)));
    });

    it('when the body exceeds 1 MiB, the 413 is the documented example', async () => {
      const response = await api.request.post(acknowledge).set(bearer(supplierToken)).set('Content-Type', 'application/json').send(oversizedBody);
      expect(response.status).toBe(413);
      expect(response.body).toEqual(exampleOf(expectDocumented(document, acknowledge, 'post', response)));
    });

    it('when the body is not JSON, the 415 is the documented example', async () => {
      const response = await api.request
        .post(acknowledge)
        .set(bearer(supplierToken))
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('service_order_id=1_2');
      expect(response.status).toBe(415);
      expect(response.body).toEqual(exampleOf(expectDocumented(document, acknowledge, 'post', response)));
    });
  });

  describe('core API', () => {
    let coreToken: string;
    let saleId: number;
    const core = () => bearer(coreToken);
    beforeAll(async () => {
      coreToken = await api.tokenFor('core');
      const imported = await api.request
        .post('/api/api-add-new-order-api-shopping')
        .set(core())
        .send(anOrder([{ supplier: 'supplier-b', carrier: 'Geodis' }, {}]));
      expect(imported.status).toBe(201);
      expectDocumented(document, '/api/api-add-new-order-api-shopping', 'post', imported);
      saleId = (imported.body as { sale_id: number }).sale_id;
    });

    it('when a sale is read by ID, by increment ID, with its refunds and its appointment configuration, every answer is as documented', async () => {
      const sale = await api.request.get(`/api/sale/${saleId}`).set(core());
      expect(sale.status).toBe(200);
      expectDocumented(document, '/api/sale/{id}', 'get', sale);
      const incrementId = (sale.body as { increment_id: string }).increment_id;
      const byIncrement = await api.request.get(`/api/get-sale-info-by-increment-id/${incrementId}`).set(core());
      expectDocumented(document, '/api/get-sale-info-by-increment-id/{incrementId}', 'get', byIncrement);
      expectDocumented(document, '/api/sale-refund/{id}', 'get', await api.request.get(`/api/sale-refund/${saleId}`).set(core()));
      const rdv = await api.request.get(`/api/sale-rdv/${saleId}`).set(core());
      expect(rdv.status).toBe(200);
      expectDocumented(document, '/api/sale-rdv/{id}', 'get', rdv);
    });

    it('when a sale ID is not digits, or a query parameter is unknown, the 400 is the documented example', async () => {
      const response = await api.request.get('/api/sale/12.0').set(core());
      expect(response.status).toBe(400);
      expect(response.body).toEqual(exampleOf(expectDocumented(document, '/api/sale/{id}', 'get', response)));
      const withQuery = await api.request.get('/api/sale-invoice/abc?foo=1').set(core());
      expect(withQuery.status).toBe(400);
      expect(withQuery.body).toEqual(exampleOf(expectDocumented(document, '/api/sale-invoice/{token}', 'get', withQuery)));
    });

    it('when the same order is imported again, the 200 is as documented; with other content, the 409', async () => {
      const order = anOrder([{ supplier: 'supplier-a' }]);
      const path = '/api/api-add-new-order-api-shopping';
      expect((await api.request.post(path).set(core()).send(order)).status).toBe(201);
      const again = await api.request.post(path).set(core()).send(order);
      expect(again.status).toBe(200);
      expectDocumented(document, path, 'post', again);
      const changed = await api.request
        .post(path)
        .set(core())
        .send({ ...order, grand_total: 1 });
      expect(changed.status).toBe(409);
      expectDocumented(document, path, 'post', changed);
    });

    it('when products are searched, a lead recorded, the planning and the holidays read, the answers are as documented', async () => {
      const search = await api.request.post('/api/search-ean14-product-colis').set(core()).send({ page_size: 2 });
      expect(search.status).toBe(200);
      expectDocumented(document, '/api/search-ean14-product-colis', 'post', search);
      expectDocumentedHeaders(document, '/api/search-ean14-product-colis', 'post', search);
      const lead = await api.request.post('/api/contact-lead').set(core()).send({ name: 'Zoé Brunet', email: 'zbrunet580@example.org' });
      expect(lead.status).toBe(201);
      expectDocumented(document, '/api/contact-lead', 'post', lead);
      const occupied = await api.request.get('/api/sale-sav/planning/occupied?start_date=2026-11-24&end_date=2026-11-26').set(core());
      expect(occupied.status).toBe(200);
      expectDocumented(document, '/api/sale-sav/planning/occupied', 'get', occupied);
      for (const query of ['', '?labels=true']) {
        const holidays = await api.request.get(`/api/sav-holidays${query}`).set(core());
        expect(holidays.status).toBe(200);
        expectDocumented(document, '/api/sav-holidays', 'get', holidays);
      }
      const badLabels = await api.request.get('/api/sav-holidays?labels=yes').set(core());
      expect(badLabels.body).toEqual(exampleOf(expectDocumented(document, '/api/sav-holidays', 'get', badLabels)));
    });

    it('when an action token is forged, the 404 is as documented; when the token is missing, the 401 is the documented example', async () => {
      const forged = await api.request.post('/api/sale-cancel/not-a-token').set(core());
      expect(forged.status).toBe(404);
      expectDocumented(document, '/api/sale-cancel/{token}', 'post', forged);
      const anonymous = await api.request.get(`/api/sale/${saleId}`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual(exampleOf(expectDocumented(document, '/api/sale/{id}', 'get', anonymous)));
    });
  });

  it('when the health is read, the answer is as documented', async () => {
    const response = await api.request.get('/health');
    expectDocumented(document, '/health', 'get', response);
  });

  describe('SAV status changes (core API)', () => {
    const resolvePath = '/api/sale-sav/{id}/resolve';
    const post = async (path: string, body: object) =>
      api.request
        .post(path)
        .set(bearer(await api.tokenFor('core')))
        .send(body);

    it('when a SAV is resolved, then resolved again, the 200 and the 409 are as documented', async () => {
      // An order of its own, so that the chatbot specs below see their order's SAVs only.
      await importSale(api.runtime.salesDeps, order({ increment_id: '100004599' }), systemContext());
      const opened = await api.request.post('/api/sav').set('X-API-Token', chatbotToken).send({
        increment_id: '100004599',
        email: 'claire.martin@example.org',
        product_sku: 'TAB-NORD-180',
        complaint_name: 'Rayure',
        complaint: 'Le plateau est rayé.',
      });
      const savId: number = opened.body.sav_id;

      const resolved = await post(`/api/sale-sav/${savId}/resolve`, { resolution: 'Plateau remplacé' });
      expect(resolved.status).toBe(200);
      expectDocumented(document, resolvePath, 'post', resolved);

      const again = await post(`/api/sale-sav/${savId}/resolve`, { resolution: 'Plateau remplacé' });
      expect(again.status).toBe(409);
      expectDocumented(document, resolvePath, 'post', again);

      const cancelled = await post(`/api/sale-sav/${savId}/cancel`, { reason: 'x' });
      expect(cancelled.status).toBe(409);
      expectDocumented(document, '/api/sale-sav/{id}/cancel', 'post', cancelled);
    });

    it('when the SAV is unknown, the resolution missing or the token absent, the answers are the documented examples', async () => {
      const unknown = await post('/api/sale-sav/5/close', {});
      const missing = await post('/api/sale-sav/5/resolve', {});
      const unauthorised = await api.request.post('/api/sale-sav/5/reopen').send({ reason: 'x' });

      expect([unknown.status, missing.status, unauthorised.status]).toEqual([404, 400, 401]);
      expect(unknown.body).toEqual(exampleOf(expectDocumented(document, '/api/sale-sav/{id}/close', 'post', unknown)));
      expect(missing.body).toEqual(exampleOf(expectDocumented(document, resolvePath, 'post', missing)));
      expect(unauthorised.body).toEqual(exampleOf(expectDocumented(document, '/api/sale-sav/{id}/reopen', 'post', unauthorised)));
    });
  });

  describe('label files', () => {
    const labelPath = '/api/files/labels/{supplier}/{service_order_id}.pdf';
    const firstLink = async (): Promise<string> => {
      const listed = (await api.request.get('/api/supplier-a/get-sales').set(bearer(supplierToken))).body as { link_to_label: string }[];
      return listed[0]!.link_to_label.slice('https://orders.example.test'.length);
    };
    const asBytes = (request: ReturnType<typeof api.request.get>) =>
      request.buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

    it('when the signed link of get-sales is opened, the 200 is the documented PDF', async () => {
      const response = await asBytes(api.request.get(await firstLink()));
      expect(response.status).toBe(200);
      expect(Object.keys(documentedResponse(document, labelPath, 'get', 200).content as Json)).toEqual([response.headers['content-type']]);
    });

    it('when a signed link has been altered, the 403 is the documented example', async () => {
      const response = await api.request.get((await firstLink()).replace(/expires=\d+/, 'expires=1'));
      expect(response.status).toBe(403);
      expect(response.body).toEqual(exampleOf(expectDocumented(document, labelPath, 'get', response)));
    });

    it('when neither a link nor a token is sent, the 401 is the documented example; another line shape, the 404', async () => {
      const link = await firstLink();
      const unauthorized = await api.request.get(link.split('?')[0]!);
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.body).toEqual(exampleOf(expectDocumented(document, labelPath, 'get', unauthorized)));
      const missing = await api.request.get('/api/files/labels/supplier-a/999999999_1.pdf').set(bearer(supplierToken));
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(exampleOf(expectDocumented(document, labelPath, 'get', missing)));
    });
  });

  describe('chatbot API', () => {
    const get = (path: string) => api.request.get(path).set('X-API-Token', chatbotToken);

    it('when an order exists, its details are as documented', async () => {
      const response = await get('/api/sale/details/100004512');
      expect(response.status).toBe(200);
      expectDocumented(document, '/api/sale/details/{incrementId}', 'get', response);
    });

    it('when no order has the increment ID, the 404 is as documented', async () => {
      const response = await get('/api/sale/details/404404404');
      expect(response.status).toBe(404);
      expectDocumented(document, '/api/sale/details/{incrementId}', 'get', response);
    });

    it('when the increment ID is not digits, the 400 is the documented example', async () => {
      const response = await get('/api/sale/details/A-12');
      expect(response.status).toBe(400);
      expect(response.body).toEqual(exampleOf(expectDocumented(document, '/api/sale/details/{incrementId}', 'get', response)));
    });

    it('when the token is missing, the 401 is the documented example', async () => {
      const response = await api.request.get('/api/product/CAN-OSLO-3P-GRY');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(exampleOf(expectDocumented(document, '/api/product/{sku}', 'get', response)));
    });

    it('when a SAV is opened, then looked up, both answers are as documented, as are the customer and the product', async () => {
      const opened = await api.request.post('/api/sav').set('X-API-Token', chatbotToken).send({
        increment_id: '100004512',
        email: 'claire.martin@example.org',
        product_sku: 'CAN-OSLO-3P-GRY',
        complaint_name: 'Produit endommagé',
        complaint: 'Un pied est cassé.',
      });
      expect(opened.status).toBe(200);
      expectDocumented(document, '/api/sav', 'post', opened);

      const status = await get('/api/customer/sav-status?increment_id=100004512');
      expect(status.status).toBe(200);
      expect((status.body as { sav_records: unknown[] }).sav_records).toHaveLength(1);
      expectDocumented(document, '/api/customer/sav-status', 'get', status);

      const withSav = await get('/api/sale/details/100004512');
      expectDocumented(document, '/api/sale/details/{incrementId}', 'get', withSav);

      const customer = await get('/api/Customer/details/Claire.Martin@example.org');
      expect(customer.status).toBe(200);
      expectDocumented(document, '/api/Customer/details/{email}', 'get', customer);

      for (const sku of ['CAN-OSLO-3P-GRY', 'TAB-NORD-180']) {
        const product = await get(`/api/product/${sku}`);
        expect(product.status).toBe(200);
        expectDocumented(document, '/api/product/{sku}', 'get', product);
      }
    });

    it('when the SAV request exceeds 16 MiB (its photos may come as data URLs), the 413 is the documented example', async () => {
      const oversizedSav = JSON.stringify({ increment_id: '100004512', photos: [`data:image/jpeg;base64,${'A'.repeat(16 * 1024 * 1024)}`] });
      const response = await api.request.post('/api/sav').set('X-API-Token', chatbotToken).set('Content-Type', 'application/json').send(oversizedSav);
      expect(response.status).toBe(413);
      expect(response.body).toEqual(exampleOf(expectDocumented(document, '/api/sav', 'post', response)));
    });

    it('when the SAV request is not JSON, the 415 is the documented example', async () => {
      const response = await api.request.post('/api/sav').set('X-API-Token', chatbotToken).set('Content-Type', 'application/xml').send('<sav/>');
      expect(response.status).toBe(415);
      expect(response.body).toEqual(exampleOf(expectDocumented(document, '/api/sav', 'post', response)));
    });
  });
});
