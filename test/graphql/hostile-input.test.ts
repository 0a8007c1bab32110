import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxErrorMessageLength } from '../../src/graphql/bounded-errors.ts';
import { depthOf, maxInputDepth } from '../../src/graphql/input-depth.ts';
import { variablesKey } from '../../src/graphql/read-model-answers.ts';
import { startGraphqlApi, type GraphqlApi } from './graphql-api.ts';

/**
 * Issue 29: a client's mistake is a GraphQL error, never a 500 nor an echo of a large input.
 * Variables nested 5,000 deep overflowed the stack (the kept answers' key); a 500 kB literal came back
 * whole in the error naming it.
 */

/** JSON text nesting `levels` arrays (or objects) around 1: written, not stringified, since JSON.stringify itself overflows. */
const nestedArrays = (levels: number): string => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
const nestedObjects = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

const dashboard = '{ dashboard(from: "2026-10-01", to: "2026-10-31", granularity: DAY) { totals { orders } } }';

describe('GraphQL input a client gets wrong', () => {
  let api: GraphqlApi;
  beforeAll(async () => {
    api = await startGraphqlApi();
  });
  afterAll(async () => api.close());

  const postText = async (query: string, variables: string, token = api.token) => {
    const before = await api.runtime.eventStore.headPosition();
    const response = await api.request
      .post('/graphql')
      .set('Content-Type', 'application/json')
      .set('Authorization', `Bearer ${token}`)
      .send(`{"query":${JSON.stringify(query)},"variables":${variables}}`);
    return { response, appended: (await api.runtime.eventStore.headPosition()) !== before };
  };

  it.each([
    ['an answer kept from the read models (an unused variable)', dashboard, `{"x":${nestedArrays(5000)}}`, 'analyst'],
    ['a DateTime variable', 'query($at: DateTime) { saleAt(id: 1, asOf: { at: $at }) { status } }', `{"at":${nestedObjects(5000)}}`, 'analyst'],
    [
      "a mutation's JSON data",
      'mutation($data: JSON) { mintActionToken(action: address, saleId: 1, data: $data) { token } }',
      `{"data":${nestedObjects(5000)}}`,
      'core',
    ],
  ])(
    'when the variables of %s nest 5,000 levels deep, the body is refused before it is parsed (a GraphQL 400) and nothing is recorded',
    async (_what, query, variables, group) => {
      const { response, appended } = await postText(query, variables, group === 'core' ? api.staffToken : api.token);
      expect(response.status).toBe(400);
      expect(response.body.errors).toHaveLength(1);
      expect(response.body.errors[0].extensions).toEqual({ code: 'BAD_REQUEST' });
      expect(response.body.errors[0].message).toMatch(/^The request body nests more than 32 levels deep \(at variables\.[a-z]+\.(0|a)\.(0|a)/);
      expect(appended).toBe(false);
    },
  );

  it('when the variables nest just one level more than the limit, they are refused; at the limit, the operation runs', async () => {
    // The variables object is the first level, `x` the second.
    const over = await postText(dashboard, `{"x":${nestedArrays(maxInputDepth)}}`);
    expect(over.response.body.errors[0].extensions.code).toBe('INPUT_TOO_DEEP');
    const within = await postText(dashboard, `{"x":${nestedArrays(maxInputDepth - 1)}}`);
    expect(within.response.status).toBe(200);
    expect(within.response.body.data.dashboard.totals.orders).toBe(0);
  });

  it.each([
    ['a literal where an Int is expected', `{ sale(id: "${'a'.repeat(500_000)}") { saleId } }`, {}],
    ['a literal where a DateTime is expected', `{ saleAt(id: 1, asOf: { at: "${'a'.repeat(500_000)}" }) { status } }`, {}],
    ['a field name', `{ ${'a'.repeat(500_000)} }`, {}],
    ['a variable where an Int is expected', 'query($id: Int) { sale(id: $id) { saleId } }', { id: 'a'.repeat(500_000) }],
  ])('when %s is 500 kB long, the error quotes an excerpt of it at most', async (_what, query, variables) => {
    const response = await api.post(query, variables);
    expect(response.body.data ?? null).toBeNull();
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0].message.length).toBeLessThanOrEqual(maxErrorMessageLength + 1);
    expect(response.body.errors[0].message).toMatch(/"a{10,}…$/);
    expect(response.text.length).toBeLessThan(1_000);
  });
});

describe('the depth of an input', () => {
  it('when a value nests objects and arrays, its depth counts each level, the outermost included', () => {
    expect(depthOf(1, 10)).toBe(0);
    expect(depthOf({}, 10)).toBe(1);
    expect(depthOf({ data: { street: ['1 rue'] } }, 10)).toBe(3);
    expect(depthOf([{ a: [] }, [[[1]]]], 10)).toBe(4);
  });

  it('when a value nests 100,000 levels, its depth is known past the limit without overflowing the stack', () => {
    expect(depthOf(JSON.parse(nestedArrays(100_000)), 10)).toBe(11);
  });

  it('when the variables of a kept answer nest too deep to be written, they give no key rather than an error', () => {
    expect(variablesKey(JSON.parse(nestedArrays(100_000)))).toBeUndefined();
    expect(variablesKey({ from: '2026-10-01' })).toBe('{"from":"2026-10-01"}');
  });
});
