import { introspectionFromSchema, type GraphQLSchema } from 'graphql/index.js';
import { graphiqlAssetsPath } from './graphiql-assets.ts';

/**
 * GraphiQL asks /graphql for the schema as soon as it opens, before a person has had a chance to give
 * a token, and showed the 401 as its first screen. This script, loaded before GraphiQL, answers that
 * one request (the introspection query, sent without a real token) with the schema served beside the
 * page, so that the documentation and the completion work from the start; every other request, and
 * the introspection once a token is given, goes to /graphql as before. The schema is no secret (the
 * OpenAPI document of the REST API is public too), and GraphiQL is only served outside production.
 */

export const introspectionPath = `${graphiqlAssetsPath}/introspection.json`;

/** The introspection of the schema, as /graphql would answer it. */
export const introspectionOf = (schema: GraphQLSchema): string => JSON.stringify({ data: introspectionFromSchema(schema) });

export const schemaBeforeTokenScript = `(() => {
  const realFetch = window.fetch.bind(window);
  const hasToken = (headers) => {
    const authorization = new Headers(headers || {}).get('authorization') || '';
    return /^Bearer\\s+[^\\s<]+$/.test(authorization);
  };
  window.fetch = (input, init) => {
    const body = init && typeof init.body === 'string' ? init.body : '';
    if (body.includes('"operationName":"IntrospectionQuery"') && !hasToken(init.headers)) return realFetch(${JSON.stringify(introspectionPath)});
    return realFetch(input, init);
  };
})();
`;
