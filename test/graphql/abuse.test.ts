import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxCost, operationCost } from '../../src/graphql/cost.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { startGraphqlApi, type GraphqlApi } from './graphql-api.ts';

/**
 * Issue 16, point 1: 2,000 aliased `dashboard(granularity: DAY)` fields held the event loop 15.7 s.
 * A costly operation is priced and refused before it runs, fast, while other clients are served.
 */

const yearByDay = 'dashboard(from: "2026-01-01", to: "2026-12-31", granularity: DAY) { buckets { start orders } totals { revenue } }';
const aliased = (count: number, field: string) => `{ ${Array.from({ length: count }, (_, index) => `d${index}: ${field}`).join(' ')} }`;

describe('the cost of an operation', () => {
  const schema = buildSchema();
  const price = async (query: string, variables: Record<string, unknown> = {}) => operationCost(schema, (await import('graphql')).parse(query), variables);

  it('when a dashboard is asked by day over a year, it costs more than by month over a quarter, and more than by week over the year', async () => {
    const byDay = await price('{ dashboard(from: "2026-01-01", to: "2026-12-31", granularity: DAY) { buckets { orders } } }');
    const byWeek = await price('{ dashboard(from: "2026-01-01", to: "2026-12-31", granularity: WEEK) { buckets { orders } } }');
    const quarterByMonth = await price('{ dashboard(from: "2026-01-01", to: "2026-03-31", granularity: MONTH) { buckets { orders } } }');
    expect(byDay).toBeGreaterThan(byWeek);
    expect(byWeek).toBeGreaterThan(quarterByMonth);
    expect(byDay).toBeGreaterThan(4 * quarterByMonth);
  });

  it('when a page is asked, its size (literal or variable) multiplies what each item costs', async () => {
    const page = (first: number) => price('query($first: Int) { sales(first: $first) { edges { node { saleId incrementId } } } }', { first });
    // Each sale more: read (1), and its edge's node with two fields (1 + 2).
    expect((await page(100)) - (await page(10))).toBe(90 * (1 + 3));
    // The page (1), the events read (1,000), the list (1), two fields per event.
    expect(await price('{ events(first: 1000) { events { eventId type } } }')).toBe(1 + 1000 + 1 + 1000 * 2);
  });
});

describe('an operation bomb', () => {
  let api: GraphqlApi;
  let supplierToken: string;
  beforeAll(async () => {
    api = await startGraphqlApi();
    supplierToken = await api.tokenFor('supplier-a');
    // Warm: the first request of each kind compiles what it needs.
    await api.post('{ sale(id: 1) { saleId } }');
    await api.request.get('/api/supplier-a/get-sales').set('Authorization', `Bearer ${supplierToken}`);
  });
  afterAll(async () => api.close());

  const timed = async <T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> => {
    const start = performance.now();
    const result = await run();
    return { result, ms: performance.now() - start };
  };

  it.each([
    ['2,000 aliased year-long DAY dashboards', aliased(2000, yearByDay), 'QUERY_TOO_LARGE'],
    [
      '100 aliased year-long DAY dashboards',
      aliased(100, yearByDay).replaceAll(' { buckets { start orders } totals { revenue } }', ' { totals { revenue } }'),
      'TOO_MANY_ALIASES',
    ],
    ['10 aliased year-long DAY dashboards (the root fields allowed)', aliased(10, yearByDay), 'QUERY_TOO_COSTLY'],
    [
      'one year-long DAY dashboard with every figure of every day',
      '{ dashboard(from: "2026-01-01", to: "2026-12-31", granularity: DAY) { buckets { start end orders revenue averageBasket cancellations cancelledProducts refundRequested refundPaid savsOpened savsByCategory { key count } savsByType { key count } openSavBacklog leads } } }',
      'QUERY_TOO_COSTLY',
    ],
  ])(
    'when %s are asked, a GraphQL error is answered before anything runs, and a supplier polling its sales meanwhile is answered',
    async (_name, query, code) => {
      const [bomb, sales] = await Promise.all([
        timed(() => api.post(query)),
        timed(() => api.request.get('/api/supplier-a/get-sales').set('Authorization', `Bearer ${supplierToken}`)),
      ]);

      expect([200, 400]).toContain(bomb.result.status);
      expect(bomb.result.body.data).toBeUndefined();
      expect(bomb.result.body.errors.map((error: { extensions: { code: string } }) => error.extensions.code)).toContain(code);
      // Refused before parsing or costing finishes, not after running: tens of milliseconds on a quiet
      // machine; the bound leaves room for a loaded CI machine without letting an execution through.
      expect(bomb.ms).toBeLessThan(1_000);
      expect(sales.result.status).toBe(200);
      expect(sales.ms).toBeLessThan(1_000);
    },
  );

  it('when an operation is refused as too costly, the error names its cost and the limit', async () => {
    const response = await api.post(aliased(10, yearByDay));
    const [error] = response.body.errors;
    expect(error.extensions).toEqual({ code: 'QUERY_TOO_COSTLY', cost: expect.any(Number), maxCost });
    expect(error.extensions.cost).toBeGreaterThan(maxCost);
    expect(error.message).toBe(
      `The query costs ${error.extensions.cost}, more than the limit of ${maxCost}: ask for fewer fields, smaller pages, shorter periods or a coarser granularity`,
    );
  });
});

describe('the time budget of an operation (GRAPHQL_TIME_BUDGET_MS)', () => {
  it('when an operation outlasts it, its remaining fields are abandoned with TIME_BUDGET_EXCEEDED', async () => {
    const api = await startGraphqlApi({ env: { GRAPHQL_TIME_BUDGET_MS: '20' } });
    try {
      const readAll = api.runtime.eventStore.readAll.bind(api.runtime.eventStore);
      // The log answers slowly: the page comes back after the budget is spent.
      api.runtime.eventStore.readAll = async (options) => {
        await sleep(60);
        return readAll(options);
      };
      const response = await api.post('{ events(first: 10) { events { eventId } hasNextPage } }');
      expect(response.body.errors).toContainEqual(
        expect.objectContaining({
          message: 'The operation ran out of its time budget of 20 ms; its remaining fields were abandoned',
          extensions: { code: 'TIME_BUDGET_EXCEEDED', timeBudgetMs: 20 },
        }),
      );
    } finally {
      await api.close();
    }
  });

  it('when an operation ends within it, it is answered in full', async () => {
    const api = await startGraphqlApi({ env: { GRAPHQL_TIME_BUDGET_MS: '2000' } });
    try {
      const response = await api.post('{ events(first: 10) { events { eventId } hasNextPage } }');
      expect(response.body.errors).toBeUndefined();
    } finally {
      await api.close();
    }
  });
});

describe('the rate limit per token (GRAPHQL_RATE_LIMIT)', () => {
  it('when a token spends its operations of the minute, 429 with Retry-After and RATE_LIMITED; another token is still served', async () => {
    const api = await startGraphqlApi({ env: { GRAPHQL_RATE_LIMIT: '3' } });
    try {
      for (let index = 0; index < 3; index++) expect((await api.post('{ sale(id: 1) { saleId } }')).status).toBe(200);

      const limited = await api.post('{ sale(id: 1) { saleId } }');

      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(20);
      expect(limited.body).toEqual({
        errors: [
          {
            message: expect.stringMatching(/^Too many operations for this token: retry in \d+ s$/),
            extensions: { code: 'RATE_LIMITED', retryAfterSeconds: Number(limited.headers['retry-after']) },
          },
        ],
      });
      expect((await api.post('{ sale(id: 1) { saleId } }', undefined, api.staffToken)).status).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('when GRAPHQL_RATE_LIMIT is 0, there is no limit', async () => {
    const api = await startGraphqlApi({ env: { GRAPHQL_RATE_LIMIT: '0' } });
    try {
      const statuses = await Promise.all(Array.from({ length: 40 }, () => api.post('{ sale(id: 1) { saleId } }').then((response) => response.status)));
      expect(new Set(statuses)).toEqual(new Set([200]));
    } finally {
      await api.close();
    }
  });
});
