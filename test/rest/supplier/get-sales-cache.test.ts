import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../../src/events/command-context.ts';
import type { SupplierName } from '../../../src/events/schema/common-schemas.ts';
import { cancelSale } from '../../../src/events/sales/cancel-sale.ts';
import { shipSupplierLine } from '../../../src/events/sales/supplier-lines.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../../support/api-harness.ts';
import { acknowledgedBody, anOrder, bearer, importLine, importOrder, shippedBody } from './supplier-fixtures.ts';

type Line = { service_order_id: string };
const ids = (body: Line[]): string[] => body.map((line) => line.service_order_id);
const minutes = (count: number): number => count * 60 * 1000;

describe('the get-sales cache', () => {
  let api: ApiHarness;
  let now: Date;
  const tokens = {} as Record<SupplierName, string>;
  beforeEach(async () => {
    now = new Date('2026-10-05T08:00:00.000Z');
    api = await startApi({ clock: { now: () => now } });
    tokens['supplier-a'] = await api.tokenFor('supplier-a');
    tokens['supplier-b'] = await api.tokenFor('supplier-b');
  });
  afterEach(async () => api.close());

  const getSales = (supplier: SupplierName, query = '') => api.request.get(`/api/${supplier}/get-sales${query}`).set(bearer(tokens[supplier]));
  const post = (supplier: SupplierName, operation: string, serviceOrderId: string) =>
    api.request.post(`/api/${supplier}/${operation}`).set(bearer(tokens[supplier])).send({ service_order_id: serviceOrderId });

  it('when supplier-a asks the same query twice, the first is a MISS and the second a HIT with the same answer', async () => {
    const line = await importLine(api, 'supplier-a');
    const first = await getSales('supplier-a');
    const second = await getSales('supplier-a');
    expect([first.headers['x-cache'], second.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    expect(second.text).toBe(first.text);
    expect(ids(second.body)).toEqual([line]);
    expect(second.headers['x-page']).toBe('1');
  });

  it('when supplier-a asks the same query written differently, it is the same entry; another query is another entry', async () => {
    await importLine(api, 'supplier-a');
    expect((await getSales('supplier-a', '?page=1&date_from=2026-10-01')).headers['x-cache']).toBe('MISS');
    expect((await getSales('supplier-a', '?date_from=2026-10-01&page=01&order_number=')).headers['x-cache']).toBe('HIT');
    expect((await getSales('supplier-a', '?page=2&date_from=2026-10-01')).headers['x-cache']).toBe('MISS');
    expect((await getSales('supplier-a', '?date_from=2026-10-02')).headers['x-cache']).toBe('MISS');
  });

  it('when supplier-b asks the same query again and again, it is never a HIT', async () => {
    await importLine(api, 'supplier-b');
    const answers = [];
    for (let call = 0; call < 3; call++) answers.push((await getSales('supplier-b')).headers['x-cache']);
    expect(answers).toEqual(['MISS', 'MISS', 'MISS']);
  });

  it('when supplier-a acknowledges a line through the API, the next identical query is a MISS and still lists it', async () => {
    const line = await importLine(api, 'supplier-a');
    await getSales('supplier-a');
    expect((await post('supplier-a', 'acknowledge-sale', line)).body).toEqual(acknowledgedBody);
    const after = await getSales('supplier-a');
    expect(after.headers['x-cache']).toBe('MISS');
    expect(ids(after.body)).toEqual([line]);
    expect((await getSales('supplier-a')).headers['x-cache']).toBe('HIT');
  });

  it('when supplier-a ships a line through the API, the next identical query is a MISS without it', async () => {
    const shipped = await importLine(api, 'supplier-a');
    const kept = await importLine(api, 'supplier-a');
    expect(ids((await getSales('supplier-a')).body)).toEqual([shipped, kept]);
    expect((await post('supplier-a', 'ship-sale', shipped)).body).toEqual(shippedBody);
    const after = await getSales('supplier-a');
    expect(after.headers['x-cache']).toBe('MISS');
    expect(ids(after.body)).toEqual([kept]);
  });

  it('when a line is shipped or cancelled outside the API, the cache never shows it again', async () => {
    const order = anOrder([{ supplier: 'supplier-a' }, { supplier: 'supplier-a' }, { supplier: 'supplier-a' }]);
    const [shipped, cancelled, kept] = (await importOrder(api, order)) as [string, string, string];
    await getSales('supplier-a');
    expect((await getSales('supplier-a')).headers['x-cache']).toBe('HIT');

    await shipSupplierLine(api.runtime.salesDeps, { serviceOrderId: shipped, supplier: 'supplier-a' }, systemContext());
    await readModelsCaughtUp(api.runtime);
    const afterShipping = await getSales('supplier-a');
    expect(afterShipping.headers['x-cache']).toBe('MISS');
    expect(ids(afterShipping.body)).toEqual([cancelled, kept]);

    const saleProductId = Number(cancelled.split('_')[1]);
    await cancelSale(api.runtime.salesDeps, { incrementId: order.increment_id, saleProductIds: [saleProductId], reason: 'rupture' }, systemContext());
    await readModelsCaughtUp(api.runtime);
    const afterCancelling = await getSales('supplier-a');
    expect(afterCancelling.headers['x-cache']).toBe('MISS');
    expect(ids(afterCancelling.body)).toEqual([kept]);
  });

  it('when a new order brings supplier-a a line, the next query is a MISS that lists it', async () => {
    const first = await importLine(api, 'supplier-a');
    await getSales('supplier-a');
    const second = await importLine(api, 'supplier-a');
    const after = await getSales('supplier-a');
    expect(after.headers['x-cache']).toBe('MISS');
    expect(ids(after.body)).toEqual([first, second]);
  });

  it("when only supplier-b's lines change, supplier-a's entries stay valid", async () => {
    const lineA = await importLine(api, 'supplier-a');
    await getSales('supplier-a');
    const lineB = await importLine(api, 'supplier-b');
    await post('supplier-b', 'acknowledge-sale', lineB);
    await post('supplier-b', 'ship-sale', lineB);
    const after = await getSales('supplier-a');
    expect(after.headers['x-cache']).toBe('HIT');
    expect(ids(after.body)).toEqual([lineA]);
  });

  it('when 30 minutes have passed, the entry is read again', async () => {
    await importLine(api, 'supplier-a');
    await getSales('supplier-a');
    now = new Date(now.getTime() + minutes(30));
    expect((await getSales('supplier-a')).headers['x-cache']).toBe('HIT');
    now = new Date(now.getTime() + 1);
    expect((await getSales('supplier-a')).headers['x-cache']).toBe('MISS');
  });

  it('when a cursor query is cached, the walk after a shipment still skips nothing', async () => {
    const lines: string[] = [];
    for (let index = 0; index < 3; index++) lines.push(await importLine(api, 'supplier-a'));
    const query = `?last_service_order_number=${lines[0]}`;
    expect(ids((await getSales('supplier-a', query)).body)).toEqual(lines.slice(1));
    await post('supplier-a', 'ship-sale', lines[1]!);
    const after = await getSales('supplier-a', query);
    expect(after.headers['x-cache']).toBe('MISS');
    expect(ids(after.body)).toEqual(lines.slice(2));
  });
});
