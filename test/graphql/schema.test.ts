import { printSchema, validateSchema } from 'graphql/index.js';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/graphql/schema.ts';

describe('the GraphQL schema', () => {
  it('when built, it is a valid schema', () => {
    expect(validateSchema(buildSchema()).map((error) => error.message)).toEqual([]);
  });

  it('when printed, it equals the committed schema (a dropped or changed module shows here)', async () => {
    await expect(printSchema(buildSchema())).toMatchFileSnapshot('./schema.graphql');
  });
});
