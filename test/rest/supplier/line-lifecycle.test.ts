import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDomainStream } from '../../../src/events/domain-store.ts';
import { saleStreamName, type SaleEvent } from '../../../src/events/sales/events.ts';
import type { SupplierName } from '../../../src/events/schema/common-schemas.ts';
import { startGraphqlApi, type GraphqlApi } from '../../graphql/graphql-api.ts';
import { anOrder, baseUrl, bearer, importOrder, invalidIdBody, jsonUtf8, nothingDeliverableBody, notFoundBody, shippedBody } from './supplier-fixtures.ts';

/**
 * A line's life beyond the legacy contract, through the routes: the supplier refuses it, staff hand it
 * to the other supplier or cancel it, a supplier ships with its own carrier and tracking. Each is seen
 * in the feeds, the core and chatbot lookups and GraphQL; every refused request records nothing.
 */

const refusedBody = { success: true, message: 'Votre refus du produit a bien été enregistré' };
const incrementIdOf = (serviceOrderId: string): string => serviceOrderId.split('_')[0]!;
const saleProductIdOf = (serviceOrderId: string): number => Number(serviceOrderId.split('_')[1]);

const saleQuery = `query ($incrementId: String!) {
  sale(incrementId: $incrementId) {
    products { saleProductId supplier state refusal { supplier reason comment refusedAt } tracking { carrier trackingNumber labelPath url bySupplier } }
  }
}`;

describe('a supplier line refused, handed over, cancelled, shipped with its own tracking', () => {
  let api: GraphqlApi;
  const tokens = {} as Record<SupplierName | 'chatbot', string>;
  beforeAll(async () => {
    api = await startGraphqlApi({ env: { BASE_URL: baseUrl } });
    tokens['supplier-a'] = await api.tokenFor('supplier-a');
    tokens['supplier-b'] = await api.tokenFor('supplier-b');
    tokens.chatbot = await api.tokenFor('chatbot');
  });
  afterAll(async () => api.close());

  const post = (supplier: SupplierName, operation: string, body: unknown) =>
    api.request
      .post(`/api/${supplier}/${operation}`)
      .set(bearer(tokens[supplier]))
      .send(body as object);
  const handOver = (body: unknown) =>
    api.request
      .post('/api/supplier-line-handover')
      .set(bearer(api.staffToken))
      .send(body as object);
  const feed = async (supplier: SupplierName): Promise<string[]> =>
    ((await api.request.get(`/api/${supplier}/get-sales`).set(bearer(tokens[supplier]))).body as { service_order_id: string }[]).map(
      (line) => line.service_order_id,
    );
  const coreProduct = async (serviceOrderId: string) => {
    const response = await api.request.get(`/api/get-sale-info-by-increment-id/${incrementIdOf(serviceOrderId)}`).set(bearer(api.staffToken));
    expect(response.status).toBe(200);
    return (response.body.products as { sale_product_id: number }[]).find((product) => product.sale_product_id === saleProductIdOf(serviceOrderId));
  };
  const chatbotProduct = async (serviceOrderId: string) => {
    const response = await api.request.get(`/api/sale/details/${incrementIdOf(serviceOrderId)}`).set('X-API-Token', tokens.chatbot);
    expect(response.status).toBe(200);
    return (response.body.data.products as { sale_product_id: number }[]).find((product) => product.sale_product_id === saleProductIdOf(serviceOrderId));
  };
  const graphqlProduct = async (serviceOrderId: string) => {
    const data = await api.data<{ sale: { products: { saleProductId: number }[] } }>(saleQuery, { incrementId: incrementIdOf(serviceOrderId) });
    return data.sale.products.find((product) => product.saleProductId === saleProductIdOf(serviceOrderId));
  };
  const events = async (serviceOrderId: string): Promise<SaleEvent[]> =>
    (await readDomainStream<SaleEvent>(api.runtime.eventStore, saleStreamName(incrementIdOf(serviceOrderId)))).events;
  const oneLine = async (supplier: SupplierName): Promise<string> =>
    (await importOrder(api, anOrder([{ supplier, carrier: 'Geodis', wholesalePrice: 50 }])))[0]!;
  const expectAnswer = (response: { status: number; headers: Record<string, string>; text: string }, status: number, body: object) => {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toBe(jsonUtf8);
    expect(response.text).toBe(JSON.stringify(body));
  };

  it('when a supplier refuses its line, the line leaves its feed and every lookup shows it refused with the reason', async () => {
    const line = await oneLine('supplier-a');
    expect(await feed('supplier-a')).toContain(line);

    const response = await post('supplier-a', 'refuse-sale', { service_order_id: line, reason: 'out_of_stock', comment: 'Plus de stock avant mars' });

    expectAnswer(response, 200, refusedBody);
    expect(await feed('supplier-a')).not.toContain(line);
    expect(await feed('supplier-b')).not.toContain(line);
    const refusal = { supplier: 'supplier-a', reason: 'out_of_stock', comment: 'Plus de stock avant mars' };
    expect(await coreProduct(line)).toMatchObject({ state: 'refused', supplier: 'supplier-a', refusal: { ...refusal, refused_at: expect.any(String) } });
    expect(await chatbotProduct(line)).toMatchObject({ delivery_status: 'refused', refusal_reason: 'out_of_stock' });
    expect(await graphqlProduct(line)).toMatchObject({ state: 'refused', refusal: { ...refusal, reason: 'out_of_stock' } });
    // Refused, the line is no longer the supplier's to acknowledge nor to ship.
    expectAnswer(await post('supplier-a', 'acknowledge-sale', { service_order_id: line }), 404, notFoundBody);
    expectAnswer(await post('supplier-a', 'ship-sale', { service_order_id: line }), 200, nothingDeliverableBody);
    expect((await events(line)).filter((event) => event.type === 'SupplierLineRefused')).toHaveLength(1);
  });

  it('when a refusal names a line that is not the supplier’s open line, it answers as acknowledge does and records nothing', async () => {
    const [open, shipped, others] = await importOrder(api, anOrder([{ supplier: 'supplier-a' }, { supplier: 'supplier-a' }, { supplier: 'supplier-b' }]));
    expectAnswer(await post('supplier-a', 'ship-sale', { service_order_id: shipped }), 200, shippedBody);
    const before = (await events(open!)).length;

    for (const service_order_id of [shipped, others, `${incrementIdOf(open!)}_999999`, '1_2']) {
      expectAnswer(await post('supplier-a', 'refuse-sale', { service_order_id, reason: 'discontinued' }), 404, notFoundBody);
    }
    expectAnswer(await post('supplier-a', 'refuse-sale', { service_order_id: open, reason: 'other', comment: 'déjà refusé' }), 200, refusedBody);
    expectAnswer(await post('supplier-a', 'refuse-sale', { service_order_id: open, reason: 'other', comment: 'encore' }), 404, notFoundBody);
    expect((await events(open!)).length).toBe(before + 1);
  });

  it('when a refusal is malformed, it answers 400 in the supplier envelope naming the field and records nothing', async () => {
    const line = await oneLine('supplier-a');
    const before = (await events(line)).length;
    const cases: [unknown, object][] = [
      [{ service_order_id: 'abc', reason: 'out_of_stock' }, invalidIdBody],
      [{ reason: 'out_of_stock' }, invalidIdBody],
      [{ service_order_id: line }, { success: false, message: expect.stringMatching(/^Invalid reason: /) }],
      [
        { service_order_id: line, reason: 'too_expensive' },
        { success: false, message: expect.stringMatching(/^Invalid reason: /) },
      ],
      [
        { service_order_id: line, reason: 'other' },
        { success: false, message: 'Invalid comment: a comment is required with reason other' },
      ],
      [
        { service_order_id: line, reason: 'other', comment: 'x'.repeat(1001) },
        { success: false, message: expect.stringMatching(/^Invalid comment: /) },
      ],
      [
        { service_order_id: line, reason: 'out_of_stock', comment: 42 },
        { success: false, message: expect.stringMatching(/^Invalid comment: /) },
      ],
    ];
    for (const [body, answer] of cases) {
      const response = await post('supplier-a', 'refuse-sale', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toEqual(answer);
    }
    expect((await events(line)).length).toBe(before);
    expect(await feed('supplier-a')).toContain(line);
  });

  it('when staff hand a refused line over, the other supplier finds it in its feed with its label and ships it; GraphQL does the same', async () => {
    const line = await oneLine('supplier-a');
    await post('supplier-a', 'acknowledge-sale', { service_order_id: line });
    expect((await post('supplier-a', 'refuse-sale', { service_order_id: line, reason: 'cannot_deliver' })).status).toBe(200);

    const response = await handOver({ service_order_id: line });

    expectAnswer(response, 200, { success: true, service_order_id: line, supplier: 'supplier-b', message: 'The line is handed over to supplier-b' });
    const listed = (await api.request.get('/api/supplier-b/get-sales').set(bearer(tokens['supplier-b']))).body as {
      service_order_id: string;
      link_to_label: string;
    }[];
    const inFeed = listed.find((entry) => entry.service_order_id === line);
    expect(inFeed?.link_to_label).toMatch(new RegExp(`^${baseUrl}/api/files/labels/supplier-b/${line}\\.pdf\\?expires=\\d+&signature=`));
    // The label opens under the new supplier's link, with no token.
    const label = await api.request.get(inFeed!.link_to_label.slice(baseUrl.length));
    expect(label.status).toBe(200);
    expect(label.headers['content-type']).toBe('application/pdf');
    expect(await feed('supplier-a')).not.toContain(line);
    expect(await coreProduct(line)).toMatchObject({ state: 'pending', supplier: 'supplier-b', acknowledged_at: null, refusal: null });
    expect(await graphqlProduct(line)).toMatchObject({ supplier: 'supplier-b', state: 'pending', refusal: null });
    // supplier-a can no longer touch it; supplier-b acknowledges and ships it.
    expectAnswer(await post('supplier-a', 'ship-sale', { service_order_id: line }), 200, nothingDeliverableBody);
    expect((await post('supplier-b', 'acknowledge-sale', { service_order_id: line })).status).toBe(200);
    expectAnswer(await post('supplier-b', 'ship-sale', { service_order_id: line }), 200, shippedBody);

    // Then supplier-b refuses another line, which staff hand back through GraphQL.
    const other = await oneLine('supplier-b');
    await post('supplier-b', 'refuse-sale', { service_order_id: other, reason: 'discontinued' });
    const mutation = 'mutation ($id: String!) { handOverSupplierLine(serviceOrderId: $id) { status } }';
    expect(await api.staffData(mutation, { id: other })).toEqual({ handOverSupplierLine: { status: 'handed_over' } });
    expect(await feed('supplier-a')).toContain(other);
    expect(await graphqlProduct(other)).toMatchObject({ supplier: 'supplier-a', state: 'pending' });
  });

  it('when staff hand over a line that is not refused, or none, they are told why and nothing is recorded', async () => {
    const [open, shipped] = await importOrder(api, anOrder([{ supplier: 'supplier-a' }, { supplier: 'supplier-a' }]));
    await post('supplier-a', 'ship-sale', { service_order_id: shipped });
    const before = (await events(open!)).length;

    const notRefused = (id: string) => ({
      success: false,
      error: 'line_not_refused',
      message: `The line ${id} is not refused by its supplier: only a refused line can be handed over`,
    });
    expectAnswer(await handOver({ service_order_id: open }), 409, notRefused(open!));
    expectAnswer(await handOver({ service_order_id: shipped }), 409, notRefused(shipped!));
    const unknown = `${incrementIdOf(open!)}_999999`;
    expectAnswer(await handOver({ service_order_id: unknown }), 404, { success: false, error: 'line_not_found', message: `No line ${unknown}` });
    expectAnswer(await handOver({ service_order_id: '999999999_1' }), 404, { success: false, error: 'line_not_found', message: 'No line 999999999_1' });
    const malformed = await handOver({ service_order_id: 'abc' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ success: false, error: 'invalid_request', message: 'service_order_id: expected <increment_id>_<sale_product_id>' });
    // A supplier's token is no staff's.
    expect((await api.request.post('/api/supplier-line-handover').set(bearer(tokens['supplier-a'])).send({ service_order_id: open })).status).toBe(401);
    const graphql = await api.post('mutation { handOverSupplierLine(serviceOrderId: "1_1") { status } }', undefined, api.staffToken);
    expect(graphql.body.errors?.[0]?.extensions?.code).toBe('SALE_NOT_FOUND');
    const notStaff = await api.post(`mutation { handOverSupplierLine(serviceOrderId: "${open}") { status } }`);
    expect(notStaff.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await events(open!)).length).toBe(before);
  });

  it('when staff cancel a refused line, the existing cancellation refunds it and it stays out of every feed', async () => {
    const order = anOrder([{ supplier: 'supplier-a' }, { supplier: 'supplier-a' }]);
    const [line, kept] = await importOrder(api, order);
    await post('supplier-a', 'refuse-sale', { service_order_id: line, reason: 'out_of_stock' });
    const saleId = (await api.request.get(`/api/get-sale-info-by-increment-id/${order.increment_id}`).set(bearer(api.staffToken))).body.id as number;
    const minted = await api.staffData<{ mintActionToken: { token: string } }>(
      'mutation ($saleId: Int!, $ids: [Int!]) { mintActionToken(action: cancel, saleId: $saleId, productIds: $ids) { token } }',
      { saleId, ids: [saleProductIdOf(line!)] },
    );

    const response = await api.request.post(`/api/sale-cancel/${minted.mintActionToken.token}`).set(bearer(api.staffToken)).send({});

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'cancelled', cancelled_sale_product_ids: [saleProductIdOf(line!)] });
    expect(await coreProduct(line!)).toMatchObject({ state: 'cancelled', refusal: { reason: 'out_of_stock' } });
    expect(await feed('supplier-a')).toEqual(expect.arrayContaining([kept]));
    expect(await feed('supplier-a')).not.toContain(line);
    expect(await feed('supplier-b')).not.toContain(line);
    expectAnswer(await handOver({ service_order_id: line }), 409, {
      success: false,
      error: 'line_not_refused',
      message: `The line ${line} is not refused by its supplier: only a refused line can be handed over`,
    });
  });

  it('when a line is refused then handed over, the supplier performance counts the refusal and its reason for one, a line received by the other', async () => {
    type Performance = { supplier: SupplierName; received: number; refused: number; openBacklog: number; refusals: { reason: string; count: number }[] };
    const performance = async (): Promise<Record<SupplierName, Performance>> => {
      const data = await api.data<{ supplierPerformance: Performance[] }>(
        '{ supplierPerformance(from: "2026-10-01", to: "2026-10-31") { supplier received refused openBacklog refusals { reason count } } }',
      );
      return Object.fromEntries(data.supplierPerformance.map((row) => [row.supplier, row])) as Record<SupplierName, Performance>;
    };
    const line = await oneLine('supplier-a');
    const before = await performance();

    await post('supplier-a', 'refuse-sale', { service_order_id: line, reason: 'discontinued', comment: 'Fin de série' });
    const refused = await performance();
    await handOver({ service_order_id: line });
    const after = await performance();

    const discontinued = (row: Performance) => row.refusals.find((entry) => entry.reason === 'discontinued')!.count;
    expect(refused['supplier-a']).toMatchObject({ refused: before['supplier-a'].refused + 1, openBacklog: before['supplier-a'].openBacklog - 1 });
    expect(discontinued(refused['supplier-a'])).toBe(discontinued(before['supplier-a']) + 1);
    expect(refused['supplier-a'].refusals.map((entry) => entry.reason)).toEqual(['out_of_stock', 'discontinued', 'cannot_deliver', 'other']);
    expect(after['supplier-b']).toMatchObject({ received: before['supplier-b'].received + 1, openBacklog: before['supplier-b'].openBacklog + 1 });
    expect(after['supplier-a']).toMatchObject({ received: before['supplier-a'].received, openBacklog: before['supplier-a'].openBacklog - 1 });
  });

  it('when a supplier ships with its own carrier and tracking, the lookups show them in place of our label', async () => {
    const line = await oneLine('supplier-b');
    const labelTracking = (await coreProduct(line))!;
    expect(labelTracking).toMatchObject({ tracking: { carrier: 'Geodis', by_supplier: false } });

    const response = await post('supplier-b', 'ship-sale', {
      service_order_id: line,
      carrier: 'DPD',
      tracking_number: '15501234567890',
      tracking_url: 'https://trace.dpd.fr/fr/trace/15501234567890',
    });

    expectAnswer(response, 200, shippedBody);
    const own = { number: '15501234567890', carrier: 'DPD', url: 'https://trace.dpd.fr/fr/trace/15501234567890', by_supplier: true };
    expect(await coreProduct(line)).toMatchObject({ state: 'shipped', tracking: own });
    expect(await chatbotProduct(line)).toMatchObject({
      tracking: '15501234567890',
      carrier: 'DPD',
      delivery_status: 'shipped',
      container_tracking: { tracking_number: '15501234567890', carrier: 'DPD', tracking_url: own.url },
    });
    expect(await graphqlProduct(line)).toMatchObject({
      tracking: { carrier: 'DPD', trackingNumber: '15501234567890', labelPath: null, url: own.url, bySupplier: true },
    });
    const shipped = (await events(line)).find((event) => event.type === 'SaleProductShipped');
    expect(shipped?.data).toMatchObject({ supplierTracking: { carrier: 'DPD', trackingNumber: '15501234567890', trackingUrl: own.url } });
  });

  it('when ship-sale carries the legacy body, or blank tracking fields, it ships as before with our label', async () => {
    const [legacy, blank] = await importOrder(
      api,
      anOrder([
        { supplier: 'supplier-a', carrier: 'Geodis' },
        { supplier: 'supplier-a', carrier: 'Geodis' },
      ]),
    );
    expectAnswer(await post('supplier-a', 'ship-sale', { service_order_id: legacy }), 200, shippedBody);
    expectAnswer(await post('supplier-a', 'ship-sale', { service_order_id: blank, carrier: '', tracking_number: null, tracking_url: '' }), 200, shippedBody);
    for (const line of [legacy!, blank!]) {
      expect(await coreProduct(line)).toMatchObject({ state: 'shipped', tracking: { carrier: 'Geodis', by_supplier: false } });
      const shipped = (await events(line)).find((event) => event.type === 'SaleProductShipped' && event.data.saleProductId === saleProductIdOf(line));
      expect(shipped?.data).not.toHaveProperty('supplierTracking');
    }
  });

  it('when the tracking given with ship-sale cannot be read, it answers 400 naming the field and ships nothing', async () => {
    const line = await oneLine('supplier-a');
    const before = (await events(line)).length;
    const cases: [object, string][] = [
      [{ carrier: 'DPD' }, 'Invalid tracking_number: carrier and tracking_number go together'],
      [{ tracking_number: '123' }, 'Invalid tracking_number: carrier and tracking_number go together'],
      [{ tracking_url: 'https://trace.dpd.fr/x' }, 'Invalid tracking_url: a tracking_url needs its carrier and tracking_number'],
      [{ carrier: 'DPD', tracking_number: '123', tracking_url: 'http://trace.dpd.fr/x' }, 'Invalid tracking_url: expected an https URL'],
      [{ carrier: 'DPD', tracking_number: '123', tracking_url: 'javascript:alert(1)' }, 'Invalid tracking_url: expected an https URL'],
      [{ carrier: 'D'.repeat(65), tracking_number: '123' }, 'Invalid carrier: Too big: expected string to have <=64 characters'],
      [{ carrier: 'DPD', tracking_number: 123 }, 'Invalid tracking_number: Invalid input: expected string, received number'],
    ];
    for (const [extra, message] of cases) {
      const response = await post('supplier-a', 'ship-sale', { service_order_id: line, ...extra });
      expect(response.status, JSON.stringify(extra)).toBe(400);
      expect(response.body).toEqual({ success: false, message });
    }
    expectAnswer(await post('supplier-a', 'ship-sale', { service_order_id: 'x', carrier: 'DPD', tracking_number: '1' }), 400, invalidIdBody);
    expect((await events(line)).length).toBe(before);
    expect(await feed('supplier-a')).toContain(line);
  });
});
