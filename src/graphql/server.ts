import { GraphQLError } from 'graphql/index.js';
import { createYoga, maskError, type YogaServerInstance } from 'graphql-yoga';
import type { Runtime } from '../runtime.ts';
import type { GraphqlContext } from './context.ts';
import { noIntrospection, queryLimits } from './limits.ts';
import { buildSchema } from './schema.ts';

export const graphqlPath = '/graphql';

const schema = buildSchema();

/**
 * The GraphQL server: the schema, the validation limits, GraphiQL outside production, and masked
 * errors. An error a resolver throws on purpose (a GraphQLError with a code) reaches the client; any
 * other is logged and answered "Unexpected error." with code INTERNAL_SERVER_ERROR.
 */
export const createGraphqlServer = (runtime: Runtime): YogaServerInstance<GraphqlContext, object> =>
  createYoga<GraphqlContext>({
    schema,
    graphqlEndpoint: graphqlPath,
    graphiql: !runtime.config.production,
    landingPage: false,
    // Bearer tokens only, from internal tools: no cross-origin browser access.
    cors: false,
    logging: false,
    maskedErrors: {
      maskError: (error, message) => {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (original !== undefined && !(original instanceof GraphQLError)) runtime.log.error({ err: original }, 'graphql operation failed');
        return maskError(error, message, false);
      },
    },
    plugins: [...queryLimits(), ...(runtime.config.graphqlIntrospection ? [] : [noIntrospection()])],
  });
