import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogProducts } from '../../../src/events/catalog/catalog-handlers.ts';
import { systemContext } from '../../../src/events/command-context.ts';
import { cancelSale } from '../../../src/events/sales/cancel-sale.ts';
import { acknowledgeSupplierLine, shipSupplierLine } from '../../../src/events/sales/supplier-lines.ts';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';
import { expectSignedLabelLink } from '../../support/label-links.ts';
import { anOrder, baseUrl, bearer, importOrder, jsonUtf8 } from './supplier-fixtures.ts';

type Line = { service_order_id: string };
const ids = (body: Line[]): string[] => body.map((line) => line.service_order_id);

describe('GET /api/{supplier}/get-sales', () => {
  let api: ApiHarness;
  let tokenA: string;
  let tokenB: string;
  beforeEach(async () => {
    api = await startApi({ env: { BASE_URL: baseUrl } });
    tokenA = await api.tokenFor('supplier-a');
    tokenB = await api.tokenFor('supplier-b');
  });
  afterEach(async () => api.close());

  const getSales = (supplier: 'supplier-a' | 'supplier-b', query = '') =>
    api.request.get(`/api/${supplier}/get-sales${query}`).set(bearer(supplier === 'supplier-a' ? tokenA : tokenB));

  it("when the supplier has an open line, it answers exactly the documented fields, and only that supplier's lines", async () => {
    const order = anOrder([
      { supplier: 'supplier-a', sku: 'CAN-OSLO-3P-GRY', qty: 2, wholesalePrice: 123.45, carrier: 'Geodis' },
      { supplier: null, sku: 'LAMP-ARC-BLK' },
      { supplier: 'supplier-b', sku: 'TAB-NORD-180', carrier: 'DB Schenker', wholesalePrice: 80 },
    ]);
    const [lineA, , lineB] = await importOrder(api, order);

    const response = await getSales('supplier-a');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(jsonUtf8);
    const link = expectSignedLabelLink(api.runtime, response.body[0].link_to_label, { baseUrl, supplier: 'supplier-a', serviceOrderId: lineA! });
    expect(response.text).toBe(
      JSON.stringify([
        {
          service_order_id: lineA,
          sku: 'CAN-OSLO-3P-GRY',
          quantity: 2,
          price: 123.45,
          link_to_label: link,
          order_date: '2026-10-02',
          carrier: 'Geodis',
        },
      ]),
    );
    expect(response.headers['x-page']).toBe('1');
    expect(response.headers['x-page-size']).toBe('100');
    expect(response.headers.link).toBeUndefined();
    expect(ids((await getSales('supplier-b')).body)).toEqual([lineB]);
  });

  it("when the order line has no wholesale price, the catalog's is listed; when neither has one, price and carrier are null", async () => {
    await catalogProducts(
      api.runtime.write,
      [{ sku: 'BUF-ARTY-160', name: 'Buffet Arty', price: 590, wholesale_price: 310.5, supplier: 'supplier-a', carrier: 'Kuehne' }],
      systemContext(),
    );
    const [fromCatalog, unknown] = await importOrder(api, anOrder([{ sku: 'BUF-ARTY-160' }, { supplier: 'supplier-a', sku: 'NEW-SKU' }]));
    const response = await getSales('supplier-a');
    expect(response.body).toEqual([
      expect.objectContaining({ service_order_id: fromCatalog, price: 310.5, carrier: 'Kuehne' }),
      expect.objectContaining({ service_order_id: unknown, price: null, carrier: null }),
    ]);
  });

  it('when an order was placed just after midnight in the planning time zone, order_date is that local day', async () => {
    await importOrder(api, anOrder([{ supplier: 'supplier-a' }], { createdAt: '2026-10-02T22:30:00Z' }));
    expect((await getSales('supplier-a')).body[0].order_date).toBe('2026-10-03');
  });

  it('when lines span days and orders, they are listed by order_date, then increment_id as a number, then sale_product_id', async () => {
    const late = await importOrder(api, anOrder([{ supplier: 'supplier-a' }], { incrementId: '5', createdAt: '2026-10-03T10:00:00+02:00' }));
    const big = await importOrder(api, anOrder([{ supplier: 'supplier-a' }, { supplier: 'supplier-a' }], { incrementId: '1000' }));
    const small = await importOrder(api, anOrder([{ supplier: 'supplier-a' }], { incrementId: '99', createdAt: '2026-10-02T18:00:00+02:00' }));
    expect(ids((await getSales('supplier-a')).body)).toEqual([...small, ...big, ...late]);
  });

  it('when lines are shipped or cancelled they leave the listing; acknowledged lines stay until shipped', async () => {
    const order = anOrder([{ supplier: 'supplier-a' }, { supplier: 'supplier-a' }, { supplier: 'supplier-a' }, { supplier: 'supplier-a' }]);
    const [acknowledged, shipped, cancelled, untouched] = await importOrder(api, order);
    const input = (serviceOrderId: string | undefined) => ({ serviceOrderId: serviceOrderId!, supplier: 'supplier-a' as const });
    await acknowledgeSupplierLine(api.runtime.salesDeps, input(acknowledged), systemContext());
    await shipSupplierLine(api.runtime.salesDeps, input(shipped), systemContext());
    const saleProductId = Number(cancelled!.split('_')[1]);
    await cancelSale(api.runtime.salesDeps, { incrementId: order.increment_id, saleProductIds: [saleProductId], reason: 'rupture' }, systemContext());
    expect(ids((await getSales('supplier-a')).body)).toEqual([acknowledged, untouched]);
  });

  describe('filters', () => {
    const byDay = async (): Promise<Record<string, string>> => {
      const days = ['2026-10-01', '2026-10-02', '2026-10-03', '2026-10-04'];
      const lines: Record<string, string> = {};
      for (const day of days) {
        const [line] = await importOrder(api, anOrder([{ supplier: 'supplier-b' }], { createdAt: `${day}T12:00:00+02:00` }));
        lines[day] = line!;
      }
      return lines;
    };

    it('when date_from and date_to are given, both days are included', async () => {
      const lines = await byDay();
      expect(ids((await getSales('supplier-b', '?date_from=2026-10-02&date_to=2026-10-03')).body)).toEqual([lines['2026-10-02'], lines['2026-10-03']]);
      expect(ids((await getSales('supplier-b', '?date_from=2026-10-03')).body)).toEqual([lines['2026-10-03'], lines['2026-10-04']]);
      expect(ids((await getSales('supplier-b', '?date_to=2026-10-01')).body)).toEqual([lines['2026-10-01']]);
      expect(ids((await getSales('supplier-b', '?date_from=2026-10-04&date_to=2026-10-04')).body)).toEqual([lines['2026-10-04']]);
    });

    it("when order_number is given, only that order's open lines are listed, on both suppliers", async () => {
      const order = anOrder([{ supplier: 'supplier-a' }, { supplier: 'supplier-b' }, { supplier: 'supplier-a' }]);
      const [first, onB, second] = await importOrder(api, order);
      await importOrder(api, anOrder([{ supplier: 'supplier-a' }, { supplier: 'supplier-b' }]));
      expect(ids((await getSales('supplier-a', `?order_number=${order.increment_id}`)).body)).toEqual([first, second]);
      expect(ids((await getSales('supplier-b', `?order_number=${order.increment_id}`)).body)).toEqual([onB]);
      expect((await getSales('supplier-a', '?order_number=1')).body).toEqual([]);
    });

    it('when a parameter is empty, it counts as absent', async () => {
      const lines = await byDay();
      const response = await getSales('supplier-b', '?date_from=&order_number=&page=');
      expect(response.status).toBe(200);
      expect(ids(response.body)).toEqual(Object.values(lines));
    });
  });

  describe('paging', () => {
    /** 250 lines of supplier-b: 50 orders of 5 lines over a few days, in the listing order. */
    const importMany = async (): Promise<string[]> => {
      const lines: string[] = [];
      for (let index = 0; index < 50; index++) {
        const day = `2026-10-0${1 + Math.floor(index / 20)}`;
        const order = anOrder(
          Array.from({ length: 5 }, () => ({ supplier: 'supplier-b' as const })),
          { createdAt: `${day}T10:00:00+02:00` },
        );
        lines.push(...(await importOrder(api, order)));
      }
      return lines;
    };

    it('when there are 250 lines, pages of 100 cover them once, in order, with a next link while the page is full', async () => {
      const lines = await importMany();
      const pages = [];
      for (const page of [1, 2, 3, 4]) pages.push(await getSales('supplier-b', `?page=${page}`));
      expect(pages.map((response) => response.body.length)).toEqual([100, 100, 50, 0]);
      expect(pages.map((response) => response.headers['x-page'])).toEqual(['1', '2', '3', '4']);
      expect(pages.flatMap((response) => ids(response.body))).toEqual(lines);
      expect(pages[0]!.headers.link).toBe(`<${baseUrl}/api/supplier-b/get-sales?last_service_order_number=${lines[99]}>; rel="next"`);
      expect(pages[2]!.headers.link).toBeUndefined();
      expect(pages[3]!.text).toBe('[]');
    });

    it('when last_service_order_number is given, the lines after it are listed, and pages count from it', async () => {
      const lines = await importMany();
      expect(ids((await getSales('supplier-b', `?last_service_order_number=${lines[9]}`)).body)).toEqual(lines.slice(10, 110));
      expect(ids((await getSales('supplier-b', `?last_service_order_number=${lines[9]}&page=2`)).body)).toEqual(lines.slice(110, 210));
      expect(ids((await getSales('supplier-b', `?last_service_order_number=${lines[249]}`)).body)).toEqual([]);
    });

    it('when the cursor line was shipped since, the walk goes on after it', async () => {
      const lines = await importMany();
      await shipSupplierLine(api.runtime.salesDeps, { serviceOrderId: lines[99]!, supplier: 'supplier-b' }, systemContext());
      expect(ids((await getSales('supplier-b', `?last_service_order_number=${lines[99]}`)).body)).toEqual(lines.slice(100, 200));
    });

    it('when filters are given, the next link keeps them', async () => {
      const lines = await importMany();
      const response = await getSales('supplier-b', '?date_from=2026-10-01&date_to=2026-10-03');
      const lastOfPage = lines[99];
      expect(response.headers.link).toBe(
        `<${baseUrl}/api/supplier-b/get-sales?date_from=2026-10-01&date_to=2026-10-03&last_service_order_number=${lastOfPage}>; rel="next"`,
      );
    });

    for (const supplier of ['supplier-a', 'supplier-b'] as const) {
      it(`when lines are shipped between calls, a ${supplier} cursor walk (and the next links) sees every line that stayed open exactly once`, async () => {
        const lines: string[] = [];
        for (let index = 0; index < 46; index++) {
          const order = anOrder(
            Array.from({ length: 5 }, () => ({ supplier })),
            { createdAt: `2026-10-0${1 + Math.floor(index / 16)}T10:00:00+02:00` },
          );
          lines.push(...(await importOrder(api, order)));
        }
        const ship = (serviceOrderId: string) => shipSupplierLine(api.runtime.salesDeps, { serviceOrderId, supplier }, systemContext());
        const seen: string[] = [];
        const shippedUnseen = new Set<string>();
        let path: string | null = `/api/${supplier}/get-sales`;
        let round = 0;
        while (path !== null) {
          const response: { status: number; body: Line[]; headers: Record<string, string | undefined> } = await api.request
            .get(path)
            .set(bearer(supplier === 'supplier-a' ? tokenA : tokenB));
          expect(response.status).toBe(200);
          seen.push(...ids(response.body));
          const link = response.headers.link;
          path = link ? link.slice(1 + baseUrl.length, link.indexOf('>')) : null;
          // Between calls: ship lines already seen and lines not seen yet, the way a supplier and its
          // colleagues work while a client pages.
          const unseen = lines.filter((line) => !seen.includes(line) && !shippedUnseen.has(line));
          for (const line of [...seen.slice(round * 7, round * 7 + 7), ...unseen.slice(3 * round, 3 * round + 3)]) {
            if (!seen.includes(line)) shippedUnseen.add(line);
            await ship(line);
          }
          round++;
        }
        expect(round).toBeGreaterThan(2);
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen).toEqual(lines.filter((line) => !shippedUnseen.has(line)));
      });
    }
  });

  describe('malformed parameters', () => {
    const cases: readonly [string, string][] = [
      ['?page=abc', 'Invalid page: expected a positive integer'],
      ['?page=0', 'Invalid page: expected a positive integer'],
      ['?page=-1', 'Invalid page: expected a positive integer'],
      ['?page=1.5', 'Invalid page: expected a positive integer'],
      ['?page=99999999999999999999', 'Invalid page: expected a positive integer'],
      ['?page=1&page=2', 'Invalid page: expected a single value'],
      ['?date_from=2026-02-30', 'Invalid date_from: expected a date YYYY-MM-DD'],
      ['?date_from=2026-10-2', 'Invalid date_from: expected a date YYYY-MM-DD'],
      ['?date_to=02/10/2026', 'Invalid date_to: expected a date YYYY-MM-DD'],
      ['?date_from=2026-10-03&date_to=2026-10-02', 'Invalid date_from: it is after date_to'],
      ['?last_service_order_number=abc', 'Invalid last_service_order_number: expected a service_order_id <increment_id>_<sale_product_id>'],
      ['?last_service_order_number=100_', 'Invalid last_service_order_number: expected a service_order_id <increment_id>_<sale_product_id>'],
      ['?last_service_order_number=1_2_3', 'Invalid last_service_order_number: expected a service_order_id <increment_id>_<sale_product_id>'],
      ['?order_number=abc', "Invalid order_number: expected an order's increment_id (digits)"],
      // Refused, not ignored: a misspelt filter would otherwise answer every line.
      ['?since=yesterday&limit=5', 'Unknown parameter(s) since, limit; the parameters are page, date_from, date_to, last_service_order_number, order_number'],
    ];
    for (const [query, message] of cases) {
      it(`when the query is ${query}, it answers 400 naming the parameter`, async () => {
        const response = await getSales('supplier-a', query);
        expect(response.status).toBe(400);
        expect(response.headers['content-type']).toBe(jsonUtf8);
        expect(response.text).toBe(JSON.stringify({ success: false, message }));
      });
    }

    it("when the cursor names no line, or another supplier's line, it answers 400 naming last_service_order_number", async () => {
      const [lineB] = await importOrder(api, anOrder([{ supplier: 'supplier-b' }]));
      for (const cursor of ['123_456', lineB]) {
        const response = await getSales('supplier-a', `?last_service_order_number=${cursor}`);
        expect(response.status).toBe(400);
        expect(response.text).toBe(JSON.stringify({ success: false, message: `Invalid last_service_order_number: no line ${cursor} for supplier-a` }));
      }
    });
  });
});
