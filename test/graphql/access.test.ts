import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenGroup } from '../../src/events/access/events.ts';
import { maxCost } from '../../src/graphql/cost.ts';
import { maxAliases, maxDepth, maxRootFields, maxTokens } from '../../src/graphql/limits.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { startGraphqlApi, type GraphqlApi } from './graphql-api.ts';
import { productionSeller } from '../support/production-seller.ts';
import { productionSecrets } from '../support/production-secrets.ts';

const unauthenticated = {
  errors: [{ message: 'Invalid or missing Bearer token of the analyst, auditor or core group', extensions: { code: 'UNAUTHENTICATED' } }],
};

describe('access to /graphql', () => {
  let api: GraphqlApi;
  beforeAll(async () => {
    api = await startGraphqlApi();
  });
  afterAll(async () => api.close());

  it.each<TokenGroup>(['analyst', 'auditor', 'core'])('when the Bearer token is of the %s group, the operation runs', async (group) => {
    const response = await api.post('{ sale(id: 1) { saleId } }', undefined, await api.tokenFor(group));
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { data: { sale: null } } });
  });

  it.each<TokenGroup>(['supplier-a', 'supplier-b', 'chatbot'])('when the Bearer token is of the %s group, 401 with an UNAUTHENTICATED error', async (group) => {
    const response = await api.post('{ sale(id: 1) { saleId } }', undefined, await api.tokenFor(group));
    expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: unauthenticated });
  });

  it('when there is no token, or a made-up one, 401 with an UNAUTHENTICATED error', async () => {
    for (const token of [null, 'not-a-token', `${api.token}x`]) {
      const response = await api.post('{ sale(id: 1) { saleId } }', undefined, token);
      expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: unauthenticated });
    }
  });

  it('when a browser asks for /graphql outside production, GraphiQL is served without a token', async () => {
    const response = await api.request.get('/graphql').set('Accept', 'text/html');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('GraphiQL');
  });

  it('when a query is nested deeper than the limit, it is refused before running, with QUERY_TOO_DEEP', async () => {
    const deepest = '{ sales(first: 1) { edges { node { savs { appointment { date } } } } } }';
    expect((await api.post(deepest)).body).toEqual({ data: { sales: { edges: [] } } });

    const response = await api.post('{ __type(name: "Sale") { fields { type { ofType { ofType { ofType { name } } } } } } }');

    expect(response.body).toEqual({ errors: [{ message: `The query is nested deeper than ${maxDepth} levels`, extensions: { code: 'QUERY_TOO_DEEP' } }] });
  });

  it('when a query would cost more than the limit, it is refused before running, with QUERY_TOO_COSTLY', async () => {
    const page = 'events(first: 1000) { events { eventId type stream position data occurredAt } }';
    expect((await api.post(`{ a: ${page} }`)).body.errors).toBeUndefined();

    const response = await api.post(`{ a: ${page} b: ${page} }`);

    // Each page: 1, the 1,000 events read, the list 1, six fields per event.
    const cost = 2 * (1 + 1000 + 1 + 1000 * 6);
    expect(response.body.errors).toEqual([
      {
        message: `The query costs ${cost}, more than the limit of ${maxCost}: ask for fewer fields, smaller pages, shorter periods or a coarser granularity`,
        extensions: { code: 'QUERY_TOO_COSTLY', cost, maxCost },
      },
    ]);
  });

  it('when 2,000 aliased dashboards are asked in one request, it is refused before running, with QUERY_TOO_LARGE', async () => {
    const dashboard = 'dashboard(from: "2026-01-01", to: "2026-12-31", granularity: DAY) { totals { revenue } }';
    const aliased = Array.from({ length: 2000 }, (_, index) => `d${index}: ${dashboard}`).join(' ');

    const response = await api.post(`{ ${aliased} }`);

    expect(response.body.errors).toContainEqual(
      expect.objectContaining({ message: `An operation has at most ${maxTokens} tokens`, extensions: { code: 'QUERY_TOO_LARGE' } }),
    );
    expect(response.body.data).toBeUndefined();
  });

  it('when more aliases than the limit are asked, it is refused before running, with TOO_MANY_ALIASES', async () => {
    const aliased = Array.from({ length: maxAliases + 1 }, (_, index) => `d${index}: sale(id: ${index + 1}) { saleId }`).join(' ');
    const response = await api.post(`{ ${aliased} }`);
    expect(response.body.errors).toContainEqual({ message: `An operation uses at most ${maxAliases} aliases`, extensions: { code: 'TOO_MANY_ALIASES' } });
    expect(response.body.data).toBeUndefined();
  });

  it('when a few aliases compare periods, the operation runs', async () => {
    const response = await api.post(
      '{ a: dashboard(from: "2026-01-01", to: "2026-01-31", granularity: WEEK) { totals { orders } } b: dashboard(from: "2026-02-01", to: "2026-02-28", granularity: WEEK) { totals { orders } } }',
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({ a: { totals: { orders: 0 } }, b: { totals: { orders: 0 } } });
  });

  it('when an operation asks for more root fields than the limit, through fragments too, it is refused with TOO_MANY_ROOT_FIELDS', async () => {
    const fields = Array.from({ length: maxRootFields + 1 }, (_, index) => `s${index}: sale(id: ${index + 1}) { saleId }`);
    const half = Math.ceil(fields.length / 2);
    const query = `{ ...first ...second } fragment first on Query { ${fields.slice(0, half).join(' ')} } fragment second on Query { ${fields.slice(half).join(' ')} }`;

    const response = await api.post(query);

    expect(response.body.errors).toContainEqual(
      expect.objectContaining({ message: `An operation asks for at most ${maxRootFields} root fields`, extensions: { code: 'TOO_MANY_ROOT_FIELDS' } }),
    );
    expect(response.body.data).toBeUndefined();
  });

  it('when an operation fails unexpectedly, the error is masked: no message, stack or path of the cause', async () => {
    const readAll = api.runtime.eventStore.readAll;
    api.runtime.eventStore.readAll = async () => {
      throw new Error('SQLITE_CORRUPT at /var/lib/service/events.sqlite');
    };
    try {
      const response = await api.post('{ events { hasNextPage } }');
      expect(response.body.errors).toEqual([
        { message: 'Unexpected error.', locations: [{ line: 1, column: 3 }], path: ['events'], extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      ]);
      expect(response.text).not.toMatch(/SQLITE|sqlite|stack/);
    } finally {
      api.runtime.eventStore.readAll = readAll;
    }
  });

  it('when introspection is on, a misspelt field is answered with suggestions, as graphql-js words it', async () => {
    const response = await api.post('{ salse(id: 1) { saleId } }');
    expect(response.body.errors[0].message).toMatch(/Did you mean "sale"/);
  });

  it('when introspection is on (outside production by default), __schema answers', async () => {
    const response = await api.post('{ __schema { queryType { name } } }');
    expect(response.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });
});

describe('/graphql configured for production', () => {
  let api: GraphqlApi;
  beforeAll(async () => {
    api = await startGraphqlApi({ env: { NODE_ENV: 'production', ...productionSecrets, ...productionSeller } });
  });
  afterAll(async () => api.close());

  it('when introspection is asked, it is refused (GRAPHQL_INTROSPECTION defaults to false in production)', async () => {
    const response = await api.post('{ __schema { queryType { name } } }');
    expect(response.body.errors[0].message).toMatch(/introspection/);
    expect(response.body.data).toBeUndefined();
  });

  it('when a field or an argument is misspelt, the error names it without suggesting the schema’s names', async () => {
    const field = await api.post('{ salse(id: 1) { saleId } }');
    const argument = await api.post('{ sale(idd: 1) { saleId } }');

    expect(field.body.errors.map((error: { message: string }) => error.message)).toEqual(['Cannot query field "salse" on type "Query".']);
    expect(argument.body.errors[0].message).toMatch(/^Unknown argument "idd" on field "Query.sale"\.?$/);
    expect(JSON.stringify([field.body, argument.body])).not.toMatch(/Did you mean|"sales?"/);
  });

  it('when a browser asks for /graphql, no GraphiQL: without a token, 401 UNAUTHENTICATED', async () => {
    const response = await api.request.get('/graphql').set('Accept', 'text/html');
    expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: unauthenticated });
  });
});

describe('/graphql with GRAPHQL_INTROSPECTION=false outside production', () => {
  it('when introspection is asked, it is refused', async () => {
    const api = await startGraphqlApi({ env: { GRAPHQL_INTROSPECTION: 'false' } });
    try {
      const response = await api.post('{ __type(name: "Sale") { name } }');
      expect(response.body.errors[0].message).toMatch(/introspection/);
    } finally {
      await api.close();
    }
  });
});

/** One valid call of every mutation: each must be refused to an analyst before it does anything. */
const everyMutation: Record<string, string> = {
  declareHoliday: 'declareHoliday(date: "2026-12-24", label: "Fermeture") { status }',
  removeHoliday: 'removeHoliday(date: "2026-12-24") { status }',
  configurePlanning: 'configurePlanning(planningType: sav, slotTimes: ["09:00"], capacityPerSlot: 1, workingDays: [1]) { status }',
  markRefundPaid: 'markRefundPaid(incrementId: "100004512", refundId: 1) { status }',
  handOverSupplierLine: 'handOverSupplierLine(serviceOrderId: "100004512_1") { status }',
  mintActionToken: 'mintActionToken(action: cancel, saleId: 1) { token }',
  resolveSav: 'resolveSav(savId: 1, resolution: "Réparé") { status }',
  closeSav: 'closeSav(savId: 1) { status }',
  reopenSav: 'reopenSav(savId: 1, reason: "Encore cassé") { status }',
  cancelSav: 'cancelSav(savId: 1, reason: "Doublon") { status }',
  moveSavAppointment: 'moveSavAppointment(savId: 1, date: "2026-10-13", time: "09:00") { status }',
};

describe('mutations are for staff only', () => {
  let api: GraphqlApi;
  beforeAll(async () => {
    api = await startGraphqlApi();
  });
  afterAll(async () => api.close());

  it('the list below names every mutation of the schema, so that a new one cannot be left out', () => {
    expect(Object.keys(everyMutation).sort()).toEqual(Object.keys(buildSchema().getMutationType()?.getFields() ?? {}).sort());
  });

  it.each(Object.entries(everyMutation))('when an analyst token runs %s, it is refused with FORBIDDEN and nothing is recorded', async (_name, call) => {
    const before = await api.runtime.eventStore.headPosition();

    const response = await api.post(`mutation { ${call} }`);

    expect(response.body.errors).toEqual([
      expect.objectContaining({ message: 'Only staff (a Bearer token of the core group) may run this mutation', extensions: { code: 'FORBIDDEN' } }),
    ]);
    expect(await api.runtime.eventStore.headPosition()).toBe(before);
  });
});
